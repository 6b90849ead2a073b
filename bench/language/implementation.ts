/**
 * The code under evaluation, loaded from a source tree: this one, or the baseline (the insights as they were before
 * issue 25, taken from git into node_modules/.cache so both are measured in the same run, on the same sentences).
 * Only the entry points the evaluation drives are named here; their shapes are read loosely, since the baseline's
 * types are older than ours.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The last commit of main before issue 25's language work: what "baseline" means in the report. */
export const BASELINE_COMMIT = "05e8f58aab9a86669711c57fd6c9a9a7df8f994b";

export interface LooseFigure {
  id: string;
  metric: string;
  segment: string | null;
  kind: "level" | "change";
  value: number;
  unit: string;
  period: string | null;
  basis: string | null;
  isGuidance: boolean;
  sequence: number;
  confidence: number;
  consensus?: number;
  low?: number;
  high?: number;
}

export interface LooseTurn {
  sequence: number;
  analyst: string | null;
  firm: string | null;
  speaker: string | null;
  answeredBy: string[];
}

export interface LooseSpeaker {
  speaker: string;
  name: string | null;
}

export interface LooseInsights {
  figures: LooseFigure[];
  qa: { qaStartSequence: number | null; turns: LooseTurn[]; speakers: LooseSpeaker[] };
}

export interface EngineSentence {
  sequence: number;
  speaker: string;
  speakerName?: string | null;
  startMs: number;
  endMs: number;
  text: string;
  sentiment?: number | null;
}

export interface Participant {
  name: string;
  role: string | null;
  organization: string | null;
}

export interface AlertEvent {
  callId: string;
  sequence: number;
  text: string;
  speaker: string;
  startMs: number;
  endMs: number;
  confidence: null;
  sentiment: null;
}

export interface Implementation {
  name: string;
  threshold: number;
  metrics: readonly string[];
  newEngine(context: unknown): {
    compute(input: {
      sentences: readonly EngineSentence[];
      participants?: readonly Participant[];
      isComplete: boolean;
    }): LooseInsights;
  };
  extractFigures(s: { sequence: number; text: string; startMs: number }): LooseFigure[];
  previousIndex(sentences: { sequence: number; speaker: string; startMs: number; text: string }[]): {
    index: { best(text: string): unknown };
  };
  /** An alert evaluator with one guidance rule for every call; returns whether a sentence fired it. */
  guidanceAlerts(): { fires(symbol: string, event: AlertEvent): boolean };
}

async function load(root: string, name: string): Promise<Implementation> {
  const url = (p: string) => pathToFileURL(join(root, p)).href;
  const engine = (await import(url("lib/insights/engine.ts"))) as {
    InsightsEngine: new (context: unknown) => ReturnType<Implementation["newEngine"]>;
  };
  const figures = (await import(url("lib/insights/figures.ts"))) as {
    extractFigures: Implementation["extractFigures"];
    FIGURE_CONFIDENCE_THRESHOLD: number;
  };
  const changes = (await import(url("lib/insights/changes.ts"))) as {
    PreviousCallIndex: new (s: unknown) => ReturnType<Implementation["previousIndex"]>;
  };
  const schemas = (await import(url("lib/schemas/insights.ts"))) as { FIGURE_METRICS: readonly string[] };
  const alerts = (await import(url("server/alerts/evaluator.ts"))) as {
    AlertEvaluator: new (rules: unknown[]) => { onSentence(symbol: string, event: AlertEvent): unknown[] };
  };
  return {
    name,
    threshold: figures.FIGURE_CONFIDENCE_THRESHOLD,
    metrics: schemas.FIGURE_METRICS,
    newEngine: (context) => new engine.InsightsEngine(context),
    extractFigures: (s) => figures.extractFigures(s),
    previousIndex: (s) => new changes.PreviousCallIndex(s),
    guidanceAlerts() {
      const rule = {
        id: "guidance",
        userId: "bench",
        kind: "guidance",
        phrase: null,
        tickers: null,
        speakerRole: null,
        threshold: null,
      };
      const evaluator = new alerts.AlertEvaluator([rule]);
      return { fires: (symbol, event) => evaluator.onSentence(symbol, event).length > 0 };
    },
  };
}

export const loadCurrent = () => load(ROOT, "current");

/** `@/x` imports rewritten to relative paths, so the copy resolves inside itself wherever it lies. */
function rewriteAliases(dir: string, top: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) rewriteAliases(path, top);
    else if (/\.tsx?$/.test(entry)) {
      const text = readFileSync(path, "utf8");
      const rewritten = text.replace(
        /(from\s+|import\s+|import\()"@\/([^"]+)"/g,
        (_m, lead: string, target) => {
          let rel = relative(dirname(path), join(top, target as string));
          if (!rel.startsWith(".")) rel = `./${rel}`;
          return `${lead}"${rel}"`;
        },
      );
      if (rewritten !== text) writeFileSync(path, rewritten);
    }
  }
}

/**
 * The baseline tree (lib/ and server/alerts/ at BASELINE_COMMIT, or at `CALLROOM_LANGUAGE_BASELINE` to measure what a
 * later change did, e.g. a session's rules on a split drawn after them), or null when git cannot produce it.
 */
export async function loadBaseline(): Promise<Implementation | null> {
  const commit = process.env.CALLROOM_LANGUAGE_BASELINE ?? BASELINE_COMMIT;
  const dir = join(ROOT, "node_modules", ".cache", "callroom-language-baseline", commit.slice(0, 12));
  if (!existsSync(join(dir, "lib", "insights", "engine.ts"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      // Later trees import shared code from common/ (issue 24's moves); earlier ones have none.
      const hasCommon = (() => {
        try {
          execFileSync("git", ["-C", ROOT, "cat-file", "-e", `${commit}:common`], { stdio: "ignore" });
          return true;
        } catch {
          return false;
        }
      })();
      const paths = hasCommon ? ["lib", "server/alerts", "common"] : ["lib", "server/alerts"];
      const tar = execFileSync("git", ["-C", ROOT, "archive", commit, ...paths], {
        maxBuffer: 64 * 1024 * 1024,
      });
      execFileSync("tar", ["-x", "-C", dir], { input: tar });
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return null;
    }
    rewriteAliases(dir, dir);
  }
  return load(dir, "baseline");
}
