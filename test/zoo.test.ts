// The zoo's builders make the same graphs as pnnx's exports of the real models: node types in the same
// order, the same parameters, the same weight shapes and operand shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../src/format/pnnx/parse-param.ts';
import { inferShapes } from '../src/graph/shapes.ts';
import { defaultRegistry } from '../src/ops/registry.ts';
import type { Graph } from '../src/graph/graph.ts';
import { mobilenetV2, resnet18, yolov5s } from '../src/zoo/index.ts';
import { SKIP_SHARED, topology } from './helpers/shared.ts';

function structure(g: Graph) {
  return g.nodes.map((n) => ({
    type: n.type,
    params: Object.fromEntries([...n.params].sort(([a], [b]) => a.localeCompare(b))),
    weights: Object.fromEntries([...n.weights].map(([k, w]) => [k, [...w.shape]]).sort(([a], [b]) => String(a).localeCompare(String(b)))),
    inputs: n.inputs.map((v) => [...v.shape!]),
    outputs: n.outputs.map((v) => [...v.shape!]),
  }));
}

function fromFile(name: string, shape?: number[]): Graph {
  const g = parsePnnxParam(readFileSync(topology(name)), name);
  inferShapes(g, defaultRegistry.bindAll(g), shape ? [shape] : undefined);
  return g;
}

test('zoo resnet18() matches resnet18_batch1.pnnx.param', { skip: SKIP_SHARED }, () => {
  assert.deepEqual(structure(resnet18({ weights: false })), structure(fromFile('resnet18_batch1.pnnx.param')));
});

test('zoo mobilenetV2() matches mobilenet_v2.pnnx.param', { skip: SKIP_SHARED }, () => {
  assert.deepEqual(structure(mobilenetV2({ weights: false })), structure(fromFile('mobilenet_v2.pnnx.param')));
});

test('zoo yolov5s() matches yolov5s_batch4.pnnx.param', { skip: SKIP_SHARED }, () => {
  assert.deepEqual(structure(yolov5s({ batch: 4, size: 640, weights: false })), structure(fromFile('yolov5s_batch4.pnnx.param')));
});

test('zoo models carry seeded weights for every declared attribute', () => {
  const a = resnet18({ seed: 3 });
  const b = resnet18({ seed: 3 });
  for (const [i, n] of a.nodes.entries()) {
    for (const [k, w] of n.weights) {
      assert.ok(w.data && w.data.length > 0, `${n.name}.${k}`);
      assert.deepEqual(w.data, b.nodes[i]!.weights.get(k)!.data);
    }
  }
});
