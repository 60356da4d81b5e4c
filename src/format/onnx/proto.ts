// The one place that imports onnx-proto (protobufjs 6 classes generated from onnx.proto, ONNX 1.10, in a
// CommonJS package): every message the exporter writes is built and encoded with these classes.

import onnxProto from 'onnx-proto';
import type { onnx as schema } from 'onnx-proto';

export const onnx = onnxProto.onnx;

export type NodeProto = schema.INodeProto;
export type TensorProto = schema.ITensorProto;
export type AttributeProto = schema.IAttributeProto;
export type ValueInfoProto = schema.IValueInfoProto;
export type ModelProto = schema.IModelProto;
