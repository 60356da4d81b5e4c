// Where a coordinate outside a tensor reads from, for padding (F.pad, nn.*Pad2d) and for convolutions
// with padding_mode reflect/replicate/circular: PyTorch pads first, then convolves with no padding.

export type BorderMode = 'constant' | 'reflect' | 'replicate' | 'circular';

/**
 * The source index of coordinate i (-pad <= i < size + pad) along a dim of `size`, or -1 for a cell
 * that holds the constant (zeros for convolutions). Reflect mirrors without repeating the edge
 * (i = -1 reads 1), as PyTorch's reflection pad does.
 */
export function borderIndex(i: number, size: number, mode: BorderMode): number {
  if (i >= 0 && i < size) return i;
  switch (mode) {
    case 'constant': return -1;
    case 'replicate': return i < 0 ? 0 : size - 1;
    case 'circular': return ((i % size) + size) % size;
    case 'reflect': return i < 0 ? -i : 2 * (size - 1) - i;
  }
}

/** The largest padding PyTorch accepts for a mode along a dim of `size` (reflect: < size; circular: <= size). */
export function maxBorder(size: number, mode: BorderMode): number {
  switch (mode) {
    case 'constant': return Infinity;
    case 'replicate': return size > 0 ? Infinity : 0;
    case 'circular': return size;
    case 'reflect': return size - 1;
  }
}

/**
 * For each (tap k, output position o) of a sliding window along one dim, the input index it reads or -1:
 * index[k * outSize + o] for position o * stride - padBegin + k * dilation.
 */
export function tapIndex(size: number, outSize: number, kernel: number, stride: number, dilation: number, padBegin: number, mode: BorderMode): Int32Array {
  const index = new Int32Array(kernel * outSize);
  for (let k = 0; k < kernel; k++) {
    for (let o = 0; o < outSize; o++) index[k * outSize + o] = borderIndex(o * stride - padBegin + k * dilation, size, mode);
  }
  return index;
}
