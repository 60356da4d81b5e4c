// ONNX export of convolutions, linear layers, normalisation, pooling and resizing, held to the reference
// engine through onnxruntime-node; edge params included (groups, dilation, asymmetric 'same' pads,
// padding modes, output_padding, fused residual and activation, ceil_mode, count_include_pad).
import { opTests, type OpCase } from './op-cases.ts';

const conv = (args: string) => `in_channels=4 out_channels=6 kernel_size=(3,3) ${args}`;

const CONVOLUTIONS: OpCase[] = [
  { name: 'Conv stride 2 pad 1', type: 'nn.Conv2d', args: conv('stride=(2,2) padding=(1,1) bias=True @weight=(6,4,3,3)f32 @bias=(6)f32'), inputs: [[2, 4, 9, 9]] },
  {
    name: 'Conv groups 2, dilation 2, kernel 3x2, no bias', type: 'nn.Conv2d',
    args: 'in_channels=4 out_channels=6 kernel_size=(3,2) groups=2 dilation=(2,2) stride=(1,2) padding=(2,1) bias=False @weight=(6,2,3,2)f32', inputs: [[1, 4, 9, 10]],
  },
  { name: 'Conv depthwise', type: 'nn.Conv2d', args: 'in_channels=6 out_channels=12 kernel_size=(3,3) groups=6 padding=(1,1) @weight=(12,1,3,3)f32 @bias=(12)f32', inputs: [[1, 6, 7, 7]] },
  {
    name: "Conv padding='same', even kernel, dilation (1,2): asymmetric pads", type: 'nn.Conv2d',
    args: 'in_channels=3 out_channels=4 kernel_size=(4,4) dilation=(1,2) padding=same @weight=(4,3,4,4)f32 @bias=(4)f32', inputs: [[1, 3, 9, 11]],
  },
  ...(['reflect', 'replicate', 'circular'] as const).map((mode): OpCase => ({
    name: `Conv padding_mode=${mode} (Pad / Concat before the Conv)`, type: 'nn.Conv2d',
    args: `in_channels=3 out_channels=4 kernel_size=(3,3) padding=(2,1) padding_mode=${mode} @weight=(4,3,3,3)f32 @bias=(4)f32`, inputs: [[1, 3, 7, 8]],
  })),
  { name: 'Conv unbatched (C,H,W)', type: 'nn.Conv2d', args: conv('padding=(1,1) @weight=(6,4,3,3)f32 @bias=(6)f32'), inputs: [[4, 8, 8]] },
  {
    name: 'Conv with a fused residual and LeakyReLU', type: 'nn.Conv2d',
    args: conv('padding=(1,1) flowinfer.residual=True flowinfer.activation=nn.LeakyReLU flowinfer.activation.negative_slope=0.2 @weight=(6,4,3,3)f32 @bias=(6)f32'),
    inputs: [[1, 4, 6, 6], [1, 6, 6, 6]],
  },
  { name: 'Conv with fused Hardtanh', type: 'nn.Conv2d', args: conv('flowinfer.activation=nn.Hardtanh flowinfer.activation.min_val=-0.5 flowinfer.activation.max_val=0.25 @weight=(6,4,3,3)f32 @bias=(6)f32'), inputs: [[1, 4, 6, 6]] },
  {
    name: 'ConvTranspose stride 2, pad 1, output_padding 1, groups 2', type: 'nn.ConvTranspose2d',
    args: 'in_channels=4 out_channels=6 kernel_size=(3,3) stride=(2,2) padding=(1,1) output_padding=(1,1) groups=2 @weight=(4,3,3,3)f32 @bias=(6)f32', inputs: [[1, 4, 5, 6]],
  },
  {
    name: 'ConvTranspose stride (3,2), dilation 2, output_padding (2,1), no bias', type: 'nn.ConvTranspose2d',
    args: 'in_channels=4 out_channels=6 kernel_size=(3,3) stride=(3,2) dilation=(2,2) output_padding=(2,1) bias=False @weight=(4,6,3,3)f32', inputs: [[2, 4, 4, 5]],
  },
  // onnxruntime refuses output_padding >= stride, which PyTorch allows below the dilation: rewritten.
  {
    name: 'ConvTranspose output_padding 2 >= stride 2 (dilation 3), taken from the end pad', type: 'nn.ConvTranspose2d',
    args: 'in_channels=4 out_channels=2 kernel_size=(3,3) stride=(2,2) dilation=(3,3) padding=(2,2) output_padding=(2,2) @weight=(4,2,3,3)f32 @bias=(2)f32', inputs: [[1, 4, 4, 5]],
  },
  {
    name: 'ConvTranspose output_padding 2 > end pad 1: padded and cropped', type: 'nn.ConvTranspose2d',
    args: 'in_channels=4 out_channels=2 kernel_size=(3,3) stride=(2,1) dilation=(3,3) padding=(1,0) output_padding=(2,2) @weight=(4,2,3,3)f32 @bias=(2)f32', inputs: [[1, 4, 4, 5]],
  },
  { name: 'ConvTranspose kernel = stride with a fused Sigmoid', type: 'nn.ConvTranspose2d', args: 'in_channels=4 out_channels=1 kernel_size=(2,2) stride=(2,2) flowinfer.activation=nn.Sigmoid @weight=(4,1,2,2)f32 @bias=(1)f32', inputs: [[1, 4, 3, 5]] },
  {
    name: 'ConvTranspose padded and cropped, with a fused LeakyReLU', type: 'nn.ConvTranspose2d',
    args: 'in_channels=4 out_channels=2 kernel_size=(3,3) stride=(2,1) dilation=(3,3) padding=(1,0) output_padding=(2,2) flowinfer.activation=nn.LeakyReLU flowinfer.activation.negative_slope=0.2 @weight=(4,2,3,3)f32 @bias=(2)f32',
    inputs: [[1, 4, 4, 5]],
  },
  { name: 'ConvTranspose unbatched', type: 'nn.ConvTranspose2d', args: 'in_channels=4 out_channels=2 kernel_size=(2,2) stride=(2,2) @weight=(4,2,2,2)f32 @bias=(2)f32', inputs: [[4, 3, 3]] },
];

const LINEAR: OpCase[] = [
  { name: 'Linear (N,in): Gemm transB', type: 'nn.Linear', args: 'in_features=8 out_features=5 bias=True @weight=(5,8)f32 @bias=(5)f32', inputs: [[3, 8]] },
  { name: 'Linear (N,T,in): MatMul + Add', type: 'nn.Linear', args: 'in_features=8 out_features=5 bias=True @weight=(5,8)f32 @bias=(5)f32', inputs: [[2, 3, 8]] },
  { name: 'Linear (in) vector, no bias', type: 'nn.Linear', args: 'in_features=8 out_features=5 bias=False @weight=(5,8)f32', inputs: [[8]] },
  {
    name: 'Linear with fused GELU (tanh form)', type: 'nn.Linear',
    args: 'in_features=8 out_features=5 flowinfer.activation=nn.GELU flowinfer.activation.approximate=tanh @weight=(5,8)f32 @bias=(5)f32', inputs: [[4, 8]], range: [-3, 3],
  },
  { name: 'matmul 3-D @ 2-D', type: 'torch.matmul', inputs: [[2, 3, 4], [4, 5]] },
  { name: 'matmul 1-D @ 3-D (broadcast batch)', type: 'torch.matmul', inputs: [[4], [2, 4, 5]] },
  { name: 'mm', type: 'torch.mm', inputs: [[3, 4], [4, 2]] },
  { name: 'bmm', type: 'torch.bmm', inputs: [[2, 3, 4], [2, 4, 2]] },
];

const bnWeights = (c: number) => `@running_mean=(${c})f32 @running_var=(${c})f32 @weight=(${c})f32 @bias=(${c})f32`;
const NORMS: OpCase[] = [
  { name: 'BatchNorm2d', type: 'nn.BatchNorm2d', args: `num_features=4 eps=1e-3 ${bnWeights(4)}`, inputs: [[2, 4, 5, 5]] },
  { name: 'BatchNorm1d on (N,C)', type: 'nn.BatchNorm1d', args: `num_features=4 ${bnWeights(4)}`, inputs: [[3, 4]] },
  { name: 'BatchNorm1d on (N,C,L), affine=False', type: 'nn.BatchNorm1d', args: 'num_features=4 affine=False @running_mean=(4)f32 @running_var=(4)f32', inputs: [[3, 4, 6]] },
  { name: 'LayerNorm over the last 2 dims', type: 'nn.LayerNorm', args: 'normalized_shape=(5,6) eps=1e-5 elementwise_affine=True @weight=(5,6)f32 @bias=(5,6)f32', inputs: [[2, 3, 5, 6]] },
  { name: 'F.layer_norm without weight or bias', type: 'F.layer_norm', args: 'normalized_shape=(6) eps=1e-5', inputs: [[2, 5, 6]] },
  {
    name: 'F.layer_norm with weight and bias inputs', inputs: [[2, 5, 6], [6], [6]],
    lines: [
      'pnnx.Input in0 0 1 x #x=(2,5,6)f32', 'pnnx.Input in1 0 1 w #w=(6)f32', 'pnnx.Input in2 0 1 b #b=(6)f32',
      'F.layer_norm op 3 1 x w b y normalized_shape=(6) eps=1e-5 $input=x $weight=w $bias=b', 'pnnx.Output out0 1 0 y',
    ],
  },
];

const POOLS: OpCase[] = [
  { name: 'MaxPool 3x3/2 pad 1 ceil_mode', type: 'nn.MaxPool2d', args: 'kernel_size=(3,3) stride=(2,2) padding=(1,1) ceil_mode=True', inputs: [[1, 2, 10, 10]] },
  { name: 'MaxPool dilation 2', type: 'nn.MaxPool2d', args: 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(2,2)', inputs: [[1, 2, 9, 9]] },
  { name: 'MaxPool 5x5/1 pad 2 (SPPF)', type: 'nn.MaxPool2d', args: 'kernel_size=(5,5) stride=(1,1) padding=(2,2)', inputs: [[1, 3, 8, 8]] },
  { name: 'AvgPool 3x3/2 pad 1 ceil_mode count_include_pad', type: 'nn.AvgPool2d', args: 'kernel_size=(3,3) stride=(2,2) padding=(1,1) ceil_mode=True count_include_pad=True', inputs: [[1, 2, 10, 10]] },
  { name: 'AvgPool 3x3/2 pad 1 ceil_mode, padding excluded', type: 'nn.AvgPool2d', args: 'kernel_size=(3,3) stride=(2,2) padding=(1,1) ceil_mode=True count_include_pad=False', inputs: [[1, 2, 10, 10]] },
  { name: 'AvgPool 2x3/2 ceil_mode', type: 'nn.AvgPool2d', args: 'kernel_size=(2,3) stride=(2,2) ceil_mode=True', inputs: [[1, 2, 9, 8]] },
  // PyTorch drops a last ceil_mode window that would start in the right padding: 4 + 2*1 → 2 windows, not 3.
  { name: 'MaxPool 2x2/3 pad 1 ceil_mode, last window dropped', type: 'nn.MaxPool2d', args: 'kernel_size=(2,2) stride=(3,3) padding=(1,1) ceil_mode=True', inputs: [[1, 2, 4, 7]] },
  { name: 'AvgPool 2x2/3 pad 1 ceil_mode, last window dropped', type: 'nn.AvgPool2d', args: 'kernel_size=(2,2) stride=(3,3) padding=(1,1) ceil_mode=True', inputs: [[1, 2, 4, 7]] },
  { name: 'F.max_pool2d unbatched', type: 'F.max_pool2d', args: 'kernel_size=(2,2)', inputs: [[2, 8, 8]] },
  { name: 'AdaptiveAvgPool2d (1,1): GlobalAveragePool', type: 'nn.AdaptiveAvgPool2d', args: 'output_size=(1,1)', inputs: [[2, 3, 7, 5]] },
  { name: 'F.adaptive_avg_pool2d (1,1)', type: 'F.adaptive_avg_pool2d', args: 'output_size=(1,1)', inputs: [[1, 3, 4, 4]] },
  { name: 'AdaptiveMaxPool2d (1,1): GlobalMaxPool', type: 'nn.AdaptiveMaxPool2d', args: 'output_size=(1,1)', inputs: [[1, 3, 7, 5]] },
  { name: 'AdaptiveAvgPool2d (2,3) of 8x9: even windows', type: 'nn.AdaptiveAvgPool2d', args: 'output_size=(2,3)', inputs: [[1, 2, 8, 9]] },
  { name: 'AdaptiveMaxPool2d (4,4) of 8x8', type: 'nn.AdaptiveMaxPool2d', args: 'output_size=(4,4)', inputs: [[1, 2, 8, 8]] },
];

const RESIZES: OpCase[] = [
  { name: 'Upsample nearest x2 (scales)', type: 'nn.Upsample', args: 'mode=nearest scale_factor=(2.0,2.0) size=None', inputs: [[1, 2, 5, 6]] },
  { name: 'Upsample nearest x3 (scales)', type: 'nn.Upsample', args: 'mode=nearest scale_factor=(3.0,3.0)', inputs: [[1, 2, 4, 5]] },
  { name: 'interpolate nearest to size (31,13)', type: 'F.interpolate', args: 'mode=nearest size=(31,13)', inputs: [[1, 2, 16, 7]] },
  { name: 'interpolate nearest-exact x1.5', type: 'F.interpolate', args: 'mode=nearest-exact scale_factor=(1.5,1.5)', inputs: [[1, 2, 6, 4]] },
  { name: 'Upsample bilinear x2', type: 'nn.Upsample', args: 'mode=bilinear scale_factor=(2.0,2.0) align_corners=False', inputs: [[1, 2, 5, 6]] },
  { name: 'Upsample bilinear x2 align_corners', type: 'nn.Upsample', args: 'mode=bilinear scale_factor=(2.0,2.0) align_corners=True', inputs: [[1, 2, 5, 6]] },
  { name: 'interpolate bilinear to size (9,1)', type: 'F.interpolate', args: 'mode=bilinear size=(9,1) align_corners=False', inputs: [[1, 2, 4, 5]] },
  { name: 'interpolate bilinear x0.5 (down)', type: 'F.interpolate', args: 'mode=bilinear scale_factor=(0.5,0.5) align_corners=False', inputs: [[1, 2, 8, 10]] },
  { name: 'interpolate bilinear x1.7 recompute_scale_factor (sizes)', type: 'F.interpolate', args: 'mode=bilinear scale_factor=(1.7,1.7) recompute_scale_factor=True', inputs: [[1, 2, 5, 6]] },
  { name: 'UpsamplingBilinear2d (align_corners) to size', type: 'nn.UpsamplingBilinear2d', args: 'size=(7,9)', inputs: [[1, 2, 4, 5]] },
  { name: 'interpolate bicubic x2', type: 'F.interpolate', args: 'mode=bicubic scale_factor=(2.0,2.0) align_corners=False', inputs: [[1, 2, 5, 6]] },
  { name: 'interpolate bicubic to size align_corners', type: 'F.interpolate', args: 'mode=bicubic size=(7,11) align_corners=True', inputs: [[1, 2, 5, 6]] },
];

opTests('conv', CONVOLUTIONS);
opTests('linear', LINEAR);
opTests('norm', NORMS);
opTests('pool', POOLS);
opTests('resize', RESIZES);
