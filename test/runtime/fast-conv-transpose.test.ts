// nn.ConvTranspose2d on the fast engine, in graphs: the upsampling form (kernel = stride) with a batch norm
// and ReLU the optimiser folds and fuses into it, writing a channel slice of a concatenation; a grouped
// transposed convolution with padding, output_padding and dilation; a Cout = 1 head with a fused Sigmoid
// (PP-OCR's DB head). Equal to the reference engine within 1e-5, and none of them on the fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import { assertClose } from '../helpers/compare.ts';
import { randomTensor, seededGraph, withBothEngines } from '../helpers/engines.ts';

const deconv = (name: string, i: string, o: string, cin: number, cout: number, groups: number, extra: string, k: number) =>
  `nn.ConvTranspose2d ${name} 1 1 ${i} ${o} bias=True in_channels=${cin} out_channels=${cout} groups=${groups} kernel_size=(${k},${k}) ${extra} @bias=(${cout})f32 @weight=(${cin},${cout / groups},${k},${k})f32`;
const bn = (name: string, i: string, o: string, c: number) =>
  `nn.BatchNorm2d ${name} 1 1 ${i} ${o} affine=True eps=0.001 num_features=${c} @bias=(${c})f32 @running_mean=(${c})f32 @running_var=(${c})f32 @weight=(${c})f32`;

const GRAPH = `7767517
11 10
pnnx.Input in 0 1 x #x=(2,8,7,5)f32
${deconv('up', 'x', 'a', 8, 6, 1, 'stride=(2,2) padding=(0,0) output_padding=(0,0) dilation=(1,1)', 2)}
${bn('bn', 'a', 'b', 6)}
nn.ReLU relu 1 1 b c
nn.Upsample near 1 1 x d mode=nearest scale_factor=(2.0,2.0)
torch.cat cat 2 1 c d e dim=1
${deconv('grouped', 'e', 'f', 14, 4, 2, 'stride=(2,3) padding=(1,2) output_padding=(1,0) dilation=(1,2)', 3)}
nn.LeakyReLU leaky 1 1 f g negative_slope=0.1
${deconv('head', 'g', 'h', 4, 1, 1, 'stride=(2,2) padding=(0,0) output_padding=(0,0) dilation=(1,1)', 2)}
nn.Sigmoid sig 1 1 h y
pnnx.Output out 1 0 y
`;

test('transposed convolutions (upsampling into a concatenation, grouped with padding, a 1-channel head) equal the reference within 1e-5', async () => {
  const shape = [2, 8, 7, 5];
  const x = randomTensor(shape, 3);
  await withBothEngines(() => seededGraph(GRAPH, 'deconv.pnnx.param', 5), { threads: 2 }, async (reference, fast) => {
    const want = await reference.run(x);
    for (let run = 0; run < 2; run++) {
      const got = await fast.run(x);
      for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-5, `output ${k} (run ${run})`);
    }
    const deconvs = fast.graph.nodes.filter((n) => n.type === 'nn.ConvTranspose2d');
    assert.deepEqual(deconvs.map((n) => n.params.get('flowinfer.activation')), [
      { kind: 'string', value: 'nn.ReLU' }, { kind: 'string', value: 'nn.LeakyReLU' }, { kind: 'string', value: 'nn.Sigmoid' }]);
    assert.deepEqual((fast.engineStats as FastEngineStats).fallbackNodes, []);
  });
});
