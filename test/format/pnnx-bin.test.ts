import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { crc32 } from 'node:zlib';
import { bindWeights, readPnnxBin, writePnnxBin } from '../../src/format/pnnx/bin.ts';
import { loadPnnxFiles } from '../../src/format/pnnx/load.ts';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { printPnnxParam } from '../../src/format/pnnx/print-param.ts';
import { WeightError } from '../../src/errors.ts';
import { SKIP_SHARED, kuiper } from '../helpers/shared.ts';

const PARAM = `7767517
3 2
pnnx.Input in 0 1 0 #0=(1,2,3,3)f32
nn.Conv2d conv 1 1 0 1 bias=True dilation=(1,1) groups=1 in_channels=2 kernel_size=(1,1) out_channels=3 padding=(0,0) stride=(1,1) @bias=(3)f32 @weight=(3,2,1,1)f32 #1=(1,3,3,3)f32
pnnx.Output out 1 0 1
`;

function entries(): Map<string, Uint8Array> {
  const w = Float32Array.from([1, 2, 3, 4, 5, 6]);
  const b = Float32Array.from([0.5, -0.5, 0.25]);
  return new Map([
    ['conv.weight', new Uint8Array(w.buffer)],
    ['conv.bias', new Uint8Array(b.buffer)],
  ]);
}

/** A zip64 archive laid out as pnnx writes it since 2024 (pnnx-spec.md §2.3-2.4): 28-byte local zip64 blocks. */
function pnnxZip64(files: Map<string, Uint8Array>): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(0xffffffff, 18);
    local.writeUInt32LE(0xffffffff, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(32, 28);
    const extra = Buffer.alloc(32);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(28, 2);
    extra.writeBigUInt64LE(BigInt(data.length), 4);
    extra.writeBigUInt64LE(BigInt(data.length), 12);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(0xffffffff, 20);
    cd.writeUInt32LE(0xffffffff, 24);
    cd.writeUInt16LE(nameBytes.length, 28);
    cd.writeUInt16LE(32, 30);
    cd.writeUInt16LE(0xffff, 34);
    cd.writeUInt32LE(0xffffffff, 42);
    const cdExtra = Buffer.alloc(32);
    cdExtra.writeUInt16LE(1, 0);
    cdExtra.writeUInt16LE(28, 2);
    cdExtra.writeBigUInt64LE(BigInt(data.length), 4);
    cdExtra.writeBigUInt64LE(BigInt(data.length), 12);
    cdExtra.writeBigUInt64LE(BigInt(offset), 20);
    chunks.push(local, nameBytes, extra, Buffer.from(data));
    central.push(cd, nameBytes, cdExtra);
    offset += 30 + nameBytes.length + 32 + data.length;
  }
  const cdBytes = Buffer.concat(central);
  const eocd64 = Buffer.alloc(56);
  eocd64.writeUInt32LE(0x06064b50, 0);
  eocd64.writeBigUInt64LE(44n, 4);
  eocd64.writeBigUInt64LE(BigInt(files.size), 24);
  eocd64.writeBigUInt64LE(BigInt(files.size), 32);
  eocd64.writeBigUInt64LE(BigInt(cdBytes.length), 40);
  eocd64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + cdBytes.length), 8);
  locator.writeUInt32LE(1, 16);
  const eocd = Buffer.alloc(22, 0xff);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(0, 20);
  return Buffer.concat([...chunks, cdBytes, eocd64, locator, eocd]);
}

test('weights bind from a zip32 archive and write back identically', () => {
  const g = parsePnnxParam(PARAM, 'm.pnnx.param');
  bindWeights(g, entries(), 'm.pnnx.bin');
  assert.deepEqual([...(g.nodes[1]!.weights.get('weight')!.data as Float32Array)], [1, 2, 3, 4, 5, 6]);
  const bytes = writePnnxBin(g);
  const back = readPnnxBin(bytes);
  assert.deepEqual([...back.keys()].sort(), ['conv.bias', 'conv.weight']);
  const g2 = parsePnnxParam(PARAM, 'm.pnnx.param');
  bindWeights(g2, back);
  assert.deepEqual([...(g2.nodes[1]!.weights.get('bias')!.data as Float32Array)], [0.5, -0.5, 0.25]);
  // Stored, not compressed, and reproducible.
  assert.ok(bytes.length > 36 && bytes.length < 400);
  assert.deepEqual(writePnnxBin(g2), bytes);
});

test('weights bind from a zip64 archive in the layout pnnx writes', () => {
  const g = parsePnnxParam(PARAM, 'm.pnnx.param');
  bindWeights(g, readPnnxBin(pnnxZip64(entries()), 'z64.pnnx.bin'), 'z64.pnnx.bin');
  assert.deepEqual([...(g.nodes[1]!.weights.get('weight')!.data as Float32Array)], [1, 2, 3, 4, 5, 6]);
  assert.deepEqual([...(g.nodes[1]!.weights.get('bias')!.data as Float32Array)], [0.5, -0.5, 0.25]);
});

test('an unaligned entry is copied into aligned storage', () => {
  const raw = new Uint8Array(25);
  raw.set(new Uint8Array(Float32Array.from([1, 2, 3, 4, 5, 6]).buffer), 1);
  const e = entries();
  e.set('conv.weight', raw.subarray(1));
  const g = parsePnnxParam(PARAM, 'm.pnnx.param');
  bindWeights(g, e);
  assert.deepEqual([...(g.nodes[1]!.weights.get('weight')!.data as Float32Array)], [1, 2, 3, 4, 5, 6]);
});

test('a missing entry names the op, the attribute and the file', () => {
  const e = entries();
  e.delete('conv.bias');
  const g = parsePnnxParam(PARAM, 'm.pnnx.param');
  assert.throws(() => bindWeights(g, e, 'm.pnnx.bin'), (err: unknown) => {
    assert.ok(err instanceof WeightError);
    assert.match(err.message, /m\.pnnx\.bin: no entry "conv\.bias" for attribute @bias of nn\.Conv2d node "conv" \(line 4 of m\.pnnx\.param\)/);
    return true;
  });
});

test('an entry of the wrong length names op, attribute, declared shape and byte counts', () => {
  const e = entries();
  e.set('conv.weight', new Uint8Array(20));
  const g = parsePnnxParam(PARAM, 'm.pnnx.param');
  assert.throws(() => bindWeights(g, e, 'm.pnnx.bin'), /entry "conv\.weight" holds 20 bytes, but @weight=\(3,2,1,1\)f32 of nn\.Conv2d node "conv" .* needs 6 x 4 = 24/);
});

test('bytes that are not a zip raise a WeightError naming the file', () => {
  assert.throws(() => readPnnxBin(new Uint8Array([1, 2, 3, 4, 5]), 'junk.bin'), (err: unknown) => err instanceof WeightError && err.message.startsWith('junk.bin: not a readable .pnnx.bin'));
});

test('every ../shared reference model loads its weights', { skip: SKIP_SHARED }, () => {
  for (const rel of ['add/resnet_add3', 'batchnorm/bn2', 'group_conv/group_conv', 'linear/linear_512_1000', 'unet/demo_deconv', 'softmax/softmax_dim1']) {
    const g = loadPnnxFiles(kuiper(`${rel}.pnnx.param`));
    for (const n of g.nodes) for (const [k, w] of n.weights) assert.ok(w.data && w.data.length > 0, `${rel}: ${n.name}.${k} has no data`);
  }
  const linear = loadPnnxFiles(kuiper('linear/linear_512_1000.pnnx.param'));
  assert.equal(linear.nodes[1]!.weights.get('weight')!.data!.length, 512 * 1000);
});

test('a missing weights file is a clear error; weights are optional for graph-only use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-'));
  try {
    const param = join(dir, 'm.pnnx.param');
    writeFileSync(param, PARAM);
    assert.throws(() => loadPnnxFiles(param), /declares weights, but the weights file .*m\.pnnx\.bin does not exist/);
    assert.equal(loadPnnxFiles(param, { weights: 'optional' }).nodes.length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loading a 50 MB weight file holds at most about two copies of it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-'));
  try {
    const count = 50 * 1024 * 1024 / 4;
    const param = parsePnnxParam(`7767517\n3 2\npnnx.Input in 0 1 0 #0=(1,${count})f32\nnn.Linear fc 1 1 0 1 bias=False in_features=${count} out_features=1 @weight=(1,${count})f32\npnnx.Output out 1 0 1\n`, 'big');
    const data = new Float32Array(count);
    for (let i = 0; i < count; i += 1024) data[i] = i;
    param.nodes[1]!.weights.get('weight')!.data = data;
    writeFileSync(join(dir, 'big.pnnx.param'), printPnnxParam(param));
    writeFileSync(join(dir, 'big.pnnx.bin'), writePnnxBin(param));
    const script = `
      import { loadPnnxFiles } from ${JSON.stringify(new URL('../../src/format/pnnx/load.ts', import.meta.url).href)};
      const before = process.resourceUsage().maxRSS;
      const g = loadPnnxFiles(${JSON.stringify(join(dir, 'big.pnnx.param'))});
      const w = g.nodes[1].weights.get('weight').data;
      if (w[1024] !== 1024) throw new Error('wrong data');
      console.log(JSON.stringify({ peakKiB: process.resourceUsage().maxRSS - before }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { peakKiB } = JSON.parse(out.trim().split('\n').pop()!) as { peakKiB: number };
    const fileMiB = 50;
    assert.ok(peakKiB / 1024 < 2.3 * fileMiB, `peak resident memory grew by ${(peakKiB / 1024).toFixed(1)} MiB for a ${fileMiB} MiB file`);
    assert.ok(peakKiB / 1024 > 0.9 * fileMiB, `the measurement looks wrong: grew by ${(peakKiB / 1024).toFixed(1)} MiB`);
    assert.equal(readFileSync(join(dir, 'big.pnnx.bin')).length > count * 4, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
