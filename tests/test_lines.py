import pytest

from trtdoctor.lines import parse_line


@pytest.mark.parametrize("text,severity,source,message", [
    ("[11/22/2026-10:00:00] [E] [TRT] ModelImporter.cpp:726: While parsing node", "error", "TRT", "ModelImporter.cpp:726: While parsing node"),
    ("[TRT] [E] 1: [defaultAllocator.cpp::deallocateAsync::64] Error", "error", "TRT", "1: [defaultAllocator.cpp::deallocateAsync::64] Error"),
    ("[07/12/2023-10:00:00] [TRT] [W] onnx2trt_utils.cpp:374: INT64", "warning", "TRT", "onnx2trt_utils.cpp:374: INT64"),
    ("[E] Failed to parse ONNX model", "error", None, "Failed to parse ONNX model"),
    ("[TensorRT] ERROR: Network must have at least one output", "error", "TRT", "Network must have at least one output"),
    ("ERROR: [Torch-TensorRT] - Unsupported operator: aten::foo", "error", "Torch-TensorRT", "Unsupported operator: aten::foo"),
    ("WARNING:torch_tensorrt.dynamo.conversion: something", "warning", "Torch-TensorRT", "something"),
    ("2023-05-01 10:00:00.123 [E:onnxruntime:Default, tensorrt_execution_provider.h:58 log] [2023] fail", "error", "onnxruntime", "[2023] fail"),
    ("RuntimeError: CUDA error: an illegal memory access was encountered", "error", "python", "RuntimeError: CUDA error: an illegal memory access was encountered"),
    ("plain text line", None, None, "plain text line"),
])
def test_prefixes(text, severity, source, message):
    line = parse_line(7, text)
    assert (line.severity, line.source, line.message, line.number) == (severity, source, message, 7)


@pytest.mark.parametrize("text, severity, message", [
    ("2023-01-27 14:05:53.348636: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: "
     "Cannot dlopen some TensorRT libraries.", "warning", "TF-TRT Warning: Cannot dlopen some TensorRT libraries."),
    ("E0311 14:15:13.700653 1 logging.cc:43] runtime.cpp (24) - Cuda Error in allocate: 2", "error",
     "runtime.cpp (24) - Cuda Error in allocate: 2"),
    ("I0311 14:15:13.700653 12345 model_repository_manager.cc:43] loading: resnet:1", "info", "loading: resnet:1"),
    # A date and a letter that are not glog's shape stay as they are.
    ("2023-01-27 W is not a severity here", None, "2023-01-27 W is not a severity here"),
])
def test_glog_and_tensorflow_prefixes_give_the_severity(text, severity, message):
    line = parse_line(1, text)
    assert (line.severity, line.message) == (severity, message)
