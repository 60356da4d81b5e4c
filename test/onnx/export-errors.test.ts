// What exportOnnx writes around the ops (IR version, opset, names, initializers) and how it refuses:
// every node without an ONNX equivalent is listed in one OnnxExportError, naming type, node and reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import onnxProto from 'onnx-proto';
import { exportOnnx, OnnxExportError, ONNX_OPSET } from '../../src/format/onnx/index.ts';
import { FlowinferError } from '../../src/errors.ts';
import { Graph } from '../../src/graph/graph.ts';
import { resnet18 } from '../../src/zoo/index.ts';
import { pnnxGraph } from './helpers.ts';

const { onnx } = onnxProto;

test('the model is IR 8, opset 17, inputs and outputs named after pnnx.Input / pnnx.Output, weights as initializers', () => {
  const graph = resnet18({ size: 32, batch: 2 });
  const model = onnx.ModelProto.decode(exportOnnx(graph));
  assert.equal(Number(model.irVersion), 8);
  assert.deepEqual(model.opsetImport.map((o) => [o.domain, Number(o.version)]), [['', ONNX_OPSET]]);
  assert.equal(ONNX_OPSET, 17);
  const g = model.graph as InstanceType<typeof onnx.GraphProto>;
  const fcInit = (name: string) => g.initializer.find((t) => t.name === name) as InstanceType<typeof onnx.TensorProto>;
  assert.deepEqual(g.input.map((v) => v.name), ['pnnx_input_0']);
  assert.deepEqual(g.output.map((v) => v.name), ['pnnx_output_0']);
  assert.deepEqual(g.input[0]!.type!.tensorType!.shape!.dim!.map((d) => Number(d.dimValue)), [2, 3, 32, 32]);
  assert.deepEqual(g.output[0]!.type!.tensorType!.shape!.dim!.map((d) => Number(d.dimValue)), [2, 1000]);
  const fc = fcInit('fc.weight');
  assert.deepEqual(fc.dims.map(Number), [1000, 512]);
  const want = graph.nodes.find((n) => n.name === 'fc')!.weights.get('weight')!.data as Float32Array;
  const got = new Float32Array(new Uint8Array(fc.rawData).buffer); // copied: protobuf bytes are unaligned
  assert.deepEqual(got.subarray(0, 8), want.subarray(0, 8));
  const ops = new Set(g.node.map((n) => n.opType));
  assert.deepEqual([...ops].sort(), ['Add', 'Conv', 'Flatten', 'Gemm', 'GlobalAveragePool', 'MaxPool', 'Relu']);
});

test('an input shape given to the export replaces the annotation', () => {
  const model = onnx.ModelProto.decode(exportOnnx(resnet18({ size: 32 }), { inputShape: [[3, 3, 64, 48]] }));
  assert.deepEqual((model.graph as InstanceType<typeof onnx.GraphProto>).output[0]!.type!.tensorType!.shape!.dim!.map((d) => Number(d.dimValue)), [3, 1000]);
});

test('nodes without an ONNX equivalent fail together in one error naming each node and why', () => {
  const graph = pnnxGraph([
    'pnnx.Input in0 0 1 x #x=(1,2,8,8)f32',
    'nn.AvgPool2d pool_div 1 1 x a kernel_size=(2,2) divisor_override=3',
    'nn.AdaptiveAvgPool2d adaptive_3x3 1 1 x b output_size=(3,3)',
    'pnnx.Expression expr_atan2 2 1 a a c expr=atan2(@0,@1)',
    'pnnx.Expression expr_lae 2 1 c c d expr=logaddexp(@0,@1)',
    'pnnx.Expression expr_ok 2 1 b b e expr=add(@0,@1)',
    'pnnx.Output out0 1 0 d',
    'pnnx.Output out1 1 0 e',
  ]);
  assert.throws(() => exportOnnx(graph), (e: unknown) => {
    assert.ok(e instanceof OnnxExportError && e instanceof FlowinferError);
    assert.deepEqual(e.problems.map((p) => p.node.name), ['pool_div', 'adaptive_3x3', 'expr_atan2', 'expr_lae']);
    assert.match(e.message, /4 nodes have no ONNX equivalent/);
    assert.match(e.message, /nn\.AvgPool2d node "pool_div".*divisor_override=3/);
    assert.match(e.message, /nn\.AdaptiveAvgPool2d node "adaptive_3x3".*output_size=\(3,3\) from a 8x8 input/);
    assert.match(e.message, /pnnx\.Expression node "expr_atan2".*atan2 has no ONNX operator/);
    assert.match(e.message, /pnnx\.Expression node "expr_lae".*logaddexp has no ONNX operator/);
    assert.doesNotMatch(e.message, /expr_ok/);
    return true;
  });
});

test('operator types without an exporter are all listed before anything else runs', () => {
  const g = new Graph('custom.pnnx.param');
  const [x, a, b] = [g.value('x'), g.value('a'), g.value('b')];
  g.addNode({ type: 'pnnx.Input', name: 'in0', inputs: [], outputs: [x] });
  g.addNode({ type: 'nn.Foo', name: 'foo_1', inputs: [x], outputs: [a] });
  g.addNode({ type: 'custom.Bar', name: 'bar_7', inputs: [a], outputs: [b] });
  g.addNode({ type: 'pnnx.Output', name: 'out0', inputs: [b], outputs: [] });
  assert.throws(() => exportOnnx(g), (e: unknown) => {
    assert.ok(e instanceof OnnxExportError);
    assert.match(e.message, /cannot export custom\.pnnx\.param to ONNX: 2 nodes/);
    assert.match(e.message, /nn\.Foo node "foo_1" \(#1\): an operator type flowinfer does not know/);
    assert.match(e.message, /custom\.Bar node "bar_7" \(#2\)/);
    return true;
  });
});

test('a graph without weights data fails naming the node and the missing .pnnx.bin', () => {
  const graph = resnet18({ size: 32, weights: false });
  assert.throws(() => exportOnnx(graph), /nn\.Conv2d node "convbn2d_0".*has no data: load the model with its \.pnnx\.bin/);
});
