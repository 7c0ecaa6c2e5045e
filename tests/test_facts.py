import pytest

from trtdoctor.facts import extract
from trtdoctor.lines import parse_line


@pytest.mark.parametrize("text,number,op,name", [
    # TensorRT 10: the node's name and op are spelled out.
    ("In node 7 with name: /model/Gather_3 and operator: Gather (parseNode): INVALID_NODE: x", 7, "Gather", "/model/Gather_3"),
    # TensorRT 8.x names the parser function: an importer is named after its op ...
    ("In node 5 (importTopK): UNSUPPORTED_NODE: Assertion failed: x", 5, "TopK", None),
    ("In node 12 (importInstanceNormalization): UNSUPPORTED_NODE: x", 12, "InstanceNormalization", None),
    # ... a helper, the graph walk and the plugin fallback are not ops.
    ("In node 2 (convert_axis): UNSUPPORTED_NODE: Assertion failed: axis >= 0 && axis < nbDims", 2, None, None),
    ("In node 0 (parseGraph): INVALID_NODE: Invalid Node - Pad_12", 0, None, None),
    ("In node 31 (importFallbackPluginImporter): UNSUPPORTED_NODE: Assertion failed: creator", 31, None, None),
    ("While parsing node number 4 [Resize -> \"onnx::Resize_9\"]:", 4, "Resize", "onnx::Resize_9"),
])
def test_the_failing_node_is_read_from_the_parser_line(text, number, op, name):
    facts = extract([parse_line(1, text)])
    (node,) = facts.nodes
    assert (node.number, node.op, node.name) == (number, op, name)
