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


def test_a_short_excerpt_is_not_said_to_contradict_every_cause():
    from trtdoctor import api

    # Only the assertion: no line shows the node's op or the parser's release, so every cause of the message
    # fails for lack of a line, and none is contradicted.
    short = api.explain("In node 2 (convert_axis): UNSUPPORTED_NODE: Assertion failed: axis >= 0 && axis < nbDims\n",
                        classifier=False)
    chosen = short.diagnoses[0].selected_cause
    assert chosen.ruled_out and not chosen.contradicted
    assert "does not show the lines" in short.diagnoses[0].cause
    # TensorRT 10's wording contradicts the implicit-batch causes (its parser has no implicit batch axis); the cause
    # it selects is not ruled out at all.
    full = api.explain("[E] [TRT] ModelImporter.cpp:949: --- End node ---\n[E] [TRT] ModelImporter.cpp:951: ERROR: "
                       "onnxOpImporters.cpp:1234 In function importGather:\n[8] Assertion failed: (axis >= 0 && axis < "
                       "nbDims) && \"Axis must be in the range [0, nbDims).\"\n", classifier=False)
    causes = {c.id: c for c in full.diagnoses[0].causes}
    assert causes["shape-gather-implicit-batch"].contradicted
