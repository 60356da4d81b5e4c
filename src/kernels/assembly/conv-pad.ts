// The padded copy in front of a small-channel convolution (CPAD_* in ../abi.ts): f32_conv_pad(p, u0, u1)
// writes padded rows [u0, u1) of BATCH * HP into a dense NHWC buffer, each pixel read through the row and
// column tables (source index, or -1 for zeros), which encode the padding mode. Cheap: it runs on the
// network's input (3 channels), once per frame.
import {
  CPAD_BATCH, CPAD_CH, CPAD_COLS, CPAD_HP, CPAD_IN, CPAD_IN_IMAGE, CPAD_IN_PS, CPAD_OUT, CPAD_ROWS, CPAD_WIDTH, CPAD_WP,
} from '../abi';

export function f32_conv_pad(p: usize, u0: i32, u1: i32): void {
  const input = <usize>load<u32>(p, CPAD_IN);
  const ps = <usize>load<u32>(p, CPAD_IN_PS) << 2;
  const out = <usize>load<u32>(p, CPAD_OUT);
  const ch = load<i32>(p, CPAD_CH);
  const rows = <usize>load<u32>(p, CPAD_ROWS);
  const cols = <usize>load<u32>(p, CPAD_COLS);
  const hp = load<i32>(p, CPAD_HP);
  const wp = load<i32>(p, CPAD_WP);
  const rb = <usize>load<u32>(p, CPAD_WIDTH) * ps;
  const image = <usize>load<u32>(p, CPAD_IN_IMAGE);
  const pixelBytes = <usize>ch << 2;
  const dense = ps == pixelBytes;
  for (let u = u0; u < u1; u++) {
    const b = u / hp;
    const sy = load<i32>(rows + (<usize>(u - b * hp) << 2));
    const o = out + <usize>u * <usize>wp * pixelBytes;
    if (sy < 0) {
      memory.fill(o, 0, <usize>wp * pixelBytes);
      continue;
    }
    const src = input + <usize>b * image + <usize>sy * rb;
    // Runs of padding become one fill, runs of consecutive source pixels one copy (when the input is
    // dense too): a memory.copy per 12-byte RGB pixel cost 8 ns each, 0.4 ms at 224 x 224.
    let xp = 0;
    while (xp < wp) {
      const start = xp;
      const sx = load<i32>(cols + (<usize>xp << 2));
      xp++;
      if (sx < 0) {
        while (xp < wp && load<i32>(cols + (<usize>xp << 2)) < 0) xp++;
        memory.fill(o + <usize>start * pixelBytes, 0, <usize>(xp - start) * pixelBytes);
      } else {
        if (dense) while (xp < wp && load<i32>(cols + (<usize>xp << 2)) == sx + (xp - start)) xp++;
        memory.copy(o + <usize>start * pixelBytes, src + <usize>sx * ps, <usize>(xp - start) * pixelBytes);
      }
    }
  }
}
