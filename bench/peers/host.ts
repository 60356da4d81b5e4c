// One engine in its own process (forked by index.ts): set up once, then timed commands on demand, so that
// the benchmark can alternate between engines. Timing happens here, around the engine's own calls.

import type { Command, Reply } from './protocol.ts';
import { flowinferEngine, ortNodeEngine, ortWebEngine, type PeerEngine } from './engines.ts';

let engine: PeerEngine | undefined;
let inFlight = 1;

async function timed(count: number, run: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function handle(c: Command): Promise<Reply | undefined> {
  switch (c.kind) {
    case 'setup': {
      inFlight = c.inFlight;
      const make = { flowinfer: flowinferEngine, 'ort-web': ortWebEngine, 'ort-node': ortNodeEngine }[c.engine];
      engine = await make(c);
      return { kind: 'ready', description: engine.description, output: await engine.runOne() };
    }
    case 'latency': return { kind: 'times', ms: await timed(c.count, () => engine!.runOne()) };
    case 'batch': return { kind: 'times', ms: await timed(c.count, () => engine!.runBatch()) };
    case 'stream': {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await engine!.stream(c.frames, inFlight);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      return { kind: 'streamed', ms, cpuMs: (cpu.user + cpu.system) / 1000 };
    }
    case 'exit':
      await engine?.dispose();
      process.disconnect();
      return undefined;
  }
}

process.on('message', (c: Command) => {
  handle(c).then(
    (reply) => reply && process.send!(reply),
    (e: unknown) => process.send!({ kind: 'error', message: e instanceof Error ? e.stack ?? e.message : String(e) } satisfies Reply),
  );
});
