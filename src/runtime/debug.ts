// Debug switches, read once from the environment:
//   FLOWINFER_DEBUG=1      print each node as it runs (2: with input and output shapes)
//   FLOWINFER_STOP_AFTER=n return node n's outputs (bisecting a model)
//   FLOWINFER_PROFILE=1    print the time per node after each run

export interface DebugSettings {
  readonly level: number;
  readonly stopAfter: string | undefined;
  readonly profile: boolean;
}

export function debugFromEnv(env: NodeJS.ProcessEnv = process.env): DebugSettings {
  const level = Number(env.FLOWINFER_DEBUG ?? 0);
  return {
    level: Number.isFinite(level) ? level : 0,
    stopAfter: env.FLOWINFER_STOP_AFTER || undefined,
    profile: env.FLOWINFER_PROFILE === '1',
  };
}
