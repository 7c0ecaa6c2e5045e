"""trtdoctor: reads a failed TensorRT build log and says why it failed and what to do."""

__version__ = "0.1.0"
