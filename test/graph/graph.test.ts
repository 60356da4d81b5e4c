import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Graph, Node } from '../../src/graph/graph.ts';
import { topologicalOrder } from '../../src/graph/order.ts';
import { validateGraph } from '../../src/graph/validate.ts';
import { GraphError } from '../../src/errors.ts';

/** in -> a -> b -> out, plus whatever `extra` adds. */
function chain(): Graph {
  const g = new Graph('t.pnnx.param');
  g.addNode({ type: 'pnnx.Input', name: 'in', inputs: [], outputs: [g.value('x')] });
  g.addNode({ type: 'nn.ReLU', name: 'a', inputs: [g.value('x')], outputs: [g.value('y')] });
  g.addNode({ type: 'nn.ReLU', name: 'b', inputs: [g.value('y')], outputs: [g.value('z')] });
  g.addNode({ type: 'pnnx.Output', name: 'out', inputs: [g.value('z')], outputs: [] });
  return g;
}

test('a well-formed graph validates; producers and consumers are wired', () => {
  const g = chain();
  validateGraph(g);
  assert.equal(g.values.get('y')!.producer!.name, 'a');
  assert.deepEqual(g.values.get('y')!.consumers.map((n) => n.name), ['b']);
  assert.deepEqual(g.inputs.map((v) => v.name), ['x']);
  assert.deepEqual(g.outputs.map((v) => v.name), ['z']);
});

test('no input, no output', () => {
  const g = new Graph('t');
  g.addNode({ type: 'nn.ReLU', name: 'a', inputs: [], outputs: [g.value('y')] });
  assert.throws(() => validateGraph(g), (e: unknown) => e instanceof GraphError && /no pnnx\.Input node/.test(e.message) && /no pnnx\.Output node/.test(e.message));
});

test('a dangling operand (consumed, never produced) is named with its consumer', () => {
  const g = chain();
  g.addNode({ type: 'pnnx.Expression', name: 'e', inputs: [g.value('z'), g.value('ghost')], outputs: [g.value('w')] });
  assert.throws(() => validateGraph(g), /operand "ghost" used by "e" is produced by no node \(dangling\)/);
});

test('an operand with two producers names both', () => {
  const g = chain();
  assert.throws(() => g.addNode({ type: 'nn.ReLU', name: 'c', inputs: [g.value('x')], outputs: [g.value('y')] }), /produced by both "a" and "c"/);
  // A graph assembled by hand can still get there; validation catches it.
  const rogue = new Node('nn.ReLU', 'c', [g.value('x')], [g.value('y')]);
  g.nodes.push(rogue);
  assert.throws(() => validateGraph(g), /operand "y" is produced by "a" and "c"/);
});

test('duplicate node names are refused', () => {
  const g = chain();
  assert.throws(() => g.addNode({ type: 'nn.ReLU', name: 'a', inputs: [g.value('z')], outputs: [g.value('q')] }), /two nodes are named "a"/);
});

test('a cycle is reported with the nodes on it', () => {
  const g = new Graph('cyc.pnnx.param');
  g.addNode({ type: 'pnnx.Input', name: 'in', inputs: [], outputs: [g.value('x')] });
  g.addNode({ type: 'pnnx.Expression', name: 'p', inputs: [g.value('x'), g.value('r_out')], outputs: [g.value('p_out')] });
  g.addNode({ type: 'nn.ReLU', name: 'q', inputs: [g.value('p_out')], outputs: [g.value('q_out')] });
  g.addNode({ type: 'nn.ReLU', name: 'r', inputs: [g.value('q_out')], outputs: [g.value('r_out')] });
  g.addNode({ type: 'nn.ReLU', name: 'after', inputs: [g.value('r_out')], outputs: [g.value('s')] });
  g.addNode({ type: 'pnnx.Output', name: 'out', inputs: [g.value('s')], outputs: [] });
  assert.throws(() => validateGraph(g), (e: unknown) => {
    assert.ok(e instanceof GraphError);
    assert.match(e.message, /cyc\.pnnx\.param: the graph has a cycle: /);
    const path = e.message.split(': ').pop()!.split(' -> ').map((s) => s.replaceAll('"', ''));
    assert.equal(path[0], path[path.length - 1]);
    assert.deepEqual(new Set(path), new Set(['p', 'q', 'r']));
    return true;
  });
});

test('topological order is Kahn order with ties broken by declaration order', () => {
  // Declared out of order: consumers before producers; a diamond in the middle.
  const g = new Graph('t');
  g.addNode({ type: 'pnnx.Output', name: 'out', inputs: [g.value('sum')], outputs: [] });
  g.addNode({ type: 'pnnx.Expression', name: 'join', inputs: [g.value('l'), g.value('r')], outputs: [g.value('sum')] });
  g.addNode({ type: 'nn.ReLU', name: 'right', inputs: [g.value('x')], outputs: [g.value('r')] });
  g.addNode({ type: 'nn.ReLU', name: 'left', inputs: [g.value('x')], outputs: [g.value('l')] });
  g.addNode({ type: 'pnnx.Input', name: 'in', inputs: [], outputs: [g.value('x')] });
  assert.deepEqual(topologicalOrder(g).map((n) => n.name), ['in', 'right', 'left', 'join', 'out']);
  // Same graph, run again: the same order.
  assert.deepEqual(topologicalOrder(g).map((n) => n.name), ['in', 'right', 'left', 'join', 'out']);
});

test('removeNode and replaceUses keep producers and consumers consistent', () => {
  const g = chain();
  const a = g.nodes[1]!;
  g.replaceUses(g.values.get('y')!, g.values.get('x')!);
  g.removeNode(a);
  g.pruneValues();
  validateGraph(g);
  assert.deepEqual(g.values.get('x')!.consumers.map((n) => n.name), ['b']);
  assert.equal(g.values.has('y'), false);
});
