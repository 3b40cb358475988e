"""posekit: client and command line for the posekit animation-sampling service."""
from ._client import Asset, AsyncAsset, AsyncPosekit, Posekit
from ._core import (BakeFrame, BakeHeader, BlendLayer, Float32Answer, LayoutBlock, PosekitError, Sampling,
                    layer_parameter, parse_layout)

__all__ = ["Posekit", "AsyncPosekit", "Asset", "AsyncAsset", "PosekitError", "Float32Answer", "LayoutBlock",
           "BakeFrame", "BakeHeader", "BlendLayer", "Sampling", "parse_layout", "layer_parameter"]
__version__ = "0.1.0"
