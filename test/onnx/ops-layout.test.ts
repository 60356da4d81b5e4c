// ONNX export of data movement (flatten, reshape, permute, transpose, squeeze, unsqueeze, slice, cat, split,
// chunk, pad in every mode incl. negative crops), reductions and the inference-time identities, held to the
// reference engine through onnxruntime-node.
import { opTests, type OpCase } from './op-cases.ts';

const X: number[] = [2, 3, 4, 5];

const LAYOUT: OpCase[] = [
  { name: 'torch.flatten(1): Flatten', type: 'torch.flatten', args: 'start_dim=1 end_dim=-1', inputs: [X] },
  { name: 'torch.flatten(0)', type: 'torch.flatten', args: 'start_dim=0 end_dim=-1', inputs: [X] },
  { name: 'torch.flatten(1, 2)', type: 'torch.flatten', args: 'start_dim=1 end_dim=2', inputs: [X] },
  { name: 'nn.Flatten', type: 'nn.Flatten', inputs: [X] },
  { name: 'view (2,-1,10)', type: 'Tensor.view', args: 'shape=(2,-1,10)', inputs: [X] },
  { name: 'reshape (-1)', type: 'torch.reshape', args: 'shape=(-1)', inputs: [X] },
  { name: 'permute (0,2,3,1)', type: 'Tensor.permute', args: 'dims=(0,2,3,1)', inputs: [X] },
  { name: 'permute negative dims', type: 'torch.permute', args: 'dims=(-1,0,-2,1)', inputs: [X] },
  { name: 'transpose (1,-1)', type: 'torch.transpose', args: 'dim0=1 dim1=-1', inputs: [X] },
  { name: 'squeeze listed dims (one is not 1)', type: 'torch.squeeze', args: 'dim=(0,1)', inputs: [[1, 3, 1, 5]] },
  { name: 'squeeze all', type: 'torch.squeeze', inputs: [[1, 3, 1, 5]] },
  { name: 'squeeze a dim that is not 1 (identity)', type: 'torch.squeeze', args: 'dim=1', inputs: [[2, 3]] },
  { name: 'unsqueeze -1', type: 'torch.unsqueeze', args: 'dim=-1', inputs: [X] },
  { name: 'slice dim 2 [1:-1:2]', type: 'Tensor.slice', args: 'dim=2 start=1 end=-1 step=2', inputs: [[2, 3, 9, 5]] },
  { name: 'slice to the end (INT_MAX)', type: 'Tensor.slice', args: 'dim=-1 start=-3 end=2147483647 step=1', inputs: [X] },
  { name: 'slice vector form with a select', type: 'Tensor.slice', args: 'dims=(1,3) starts=(0,1) ends=(2147483647,4) steps=(1,2) selects=(2,2147483647)', inputs: [X] },
  { name: 'cat dim 1', type: 'torch.cat', args: 'dim=1', inputs: [X, [2, 2, 4, 5], [2, 1, 4, 5]] },
  { name: 'cat dim -1', type: 'torch.cat', args: 'dim=-1', inputs: [X, [2, 3, 4, 2]] },
  { name: 'split sizes (1,3,1)', type: 'torch.split', args: 'split_size_or_sections=(1,3,1) dim=3', inputs: [X], outputs: 3 },
  { name: 'split size 2 (uneven)', type: 'Tensor.split', args: 'split_size_or_sections=2 dim=3', inputs: [X], outputs: 3 },
  { name: 'chunk 4 of 5 → 2,2,1', type: 'torch.chunk', args: 'chunks=4 dim=-1', inputs: [X], outputs: 3 },
  { name: 'mean dims (2,3) keepdim', type: 'torch.mean', args: 'dim=(2,3) keepdim=True', inputs: [X] },
  { name: 'mean all', type: 'torch.mean', inputs: [X] },
  { name: 'sum dim 1', type: 'torch.sum', args: 'dim=1 keepdim=False', inputs: [X] },
  { name: 'sum dims (-1,0) keepdim', type: 'torch.sum', args: 'dim=(-1,0) keepdim=True', inputs: [X] },
  { name: 'Dropout', type: 'nn.Dropout', inputs: [X] },
  { name: 'Tensor.contiguous', type: 'Tensor.contiguous', inputs: [X] },
  { name: 'Tensor.to float32', type: 'Tensor.to', args: 'dtype=torch.float', inputs: [X] },
  {
    name: 'graph outputs: one operand twice, an input itself, a constant', inputs: [[2, 3]],
    lines: [
      'pnnx.Input in0 0 1 x #x=(2,3)f32', 'nn.ReLU op 1 1 x y', 'pnnx.Attribute c 0 1 k @data=(3)f32',
      'pnnx.Output out0 1 0 y', 'pnnx.Output out1 1 0 y', 'pnnx.Output out2 1 0 x', 'pnnx.Output out3 1 0 k',
    ],
  },
];

const PADS: OpCase[] = [
  { name: 'F.pad constant 2.5', type: 'F.pad', args: 'pad=(1,2,0,3) mode=constant value=2.5', inputs: [X] },
  { name: 'F.pad reflect', type: 'F.pad', args: 'pad=(2,1,3,0) mode=reflect', inputs: [X] },
  { name: 'F.pad replicate', type: 'F.pad', args: 'pad=(2,1,3,0) mode=replicate', inputs: [X] },
  { name: 'F.pad circular', type: 'F.pad', args: 'pad=(2,1,3,0) mode=circular', inputs: [X] },
  { name: 'F.pad negative (crop) and positive', type: 'F.pad', args: 'pad=(-1,2,1,-2) mode=constant', inputs: [X] },
  { name: 'nn.ZeroPad2d', type: 'nn.ZeroPad2d', args: 'padding=(1,0,2,1)', inputs: [X] },
  { name: 'nn.ReflectionPad1d', type: 'nn.ReflectionPad1d', args: 'padding=(2,3)', inputs: [[2, 3, 5]] },
  { name: 'nn.ConstantPad2d', type: 'nn.ConstantPad2d', args: 'padding=(1,1,1,1) value=-3.0', inputs: [X] },
];

opTests('layout', LAYOUT);
opTests('pad', PADS);
