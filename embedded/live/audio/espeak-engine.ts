/**
 * `SpeechEngine` backed by the npm `espeak-ng` package (eSpeak NG compiled to WASM; GPL-3.0, hence only reachable
 * through the `SpeechEngine` interface so another engine can replace it).
 *
 * The package exposes only eSpeak's command-line program, whose `main()` Emscripten runs once per module instance.
 * Instantiating the 18 MB module costs ~100 ms of CPU, five times the cost of saying a sentence, so one instance
 * is reused: `main()` is called again with an argv built with the exported `malloc`. Before every run the
 * instance's linear memory (32 MB, fixed) is put back as it was right after instantiation, so each run starts
 * exactly like a fresh instance: eSpeak's globals and musl's `getopt` state (`optind`) included.
 *
 * Memory (docs/embedded-history.md, "Measured"): 18 of the module's 18.5 MB are its data section, eSpeak's data
 * files, which Emscripten serves from linear memory in place (MEMFS owns slices of it) and which eSpeak only
 * reads. Kept whole, those bytes would sit in memory three times: in the compiled module (V8 keeps its wire
 * bytes), in linear memory, and in a full reset image. So the module is compiled without its data section, the
 * segments are read from the file straight into linear memory by this code (again for a new instance), and the
 * reset image leaves out the data files and the pages that are zero: 0.7 MB instead of 32 MB.
 * eSpeak also seeds the noise it mixes into voices from the wall clock, so the module's clock import is frozen.
 * Together they make output deterministic (same text and voice → same samples, whatever was said before and
 * whenever), which the live service relies on to rebuild a call's audio on the timeline it already published.
 * A run that fails or exits discards the instance; the next run gets a new one.
 *
 * Calls are serialised: the WASM module is single-threaded and keeps its state in globals.
 * Output: 22 050 Hz mono 16-bit PCM, trimmed to the speech with `EDGE_MS` of silence either side, plus word
 * timings estimated from the audio (see `word-timing.ts`).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ESpeakNg, { type EspeakModule } from "espeak-ng";
import { speakableTokens } from "./speakable";
import type { SpeechClip, SpeechEngine, VoiceId } from "./types";
import { estimateWordTimings, voicedStructure } from "./word-timing";

export const ESPEAK_SAMPLE_RATE = 22_050;
const EDGE_MS = 20;
const FROZEN_CLOCK_MS = Date.UTC(2026, 0, 1);
/** eSpeak `-a` (default 100 peaks at about −2.5 dBFS, and MP3 overshoot then reaches −0.4): leave headroom. */
const AMPLITUDE = 80;

interface VoiceSpec {
  id: VoiceId;
  /** Words per minute (eSpeak `-s`); earnings-call speakers vary around 160. */
  rate: number;
  /** eSpeak `-p`, 0–99, 50 = the voice's default. */
  pitch: number;
}

/**
 * Stable order: index 0 is the first speaker of a call (the operator), then accents, genders and pitches alternate
 * so that neighbouring speakers always sound clearly different.
 */
export const ESPEAK_VOICES: readonly VoiceSpec[] = [
  { id: "en-us+f3", rate: 165, pitch: 55 },
  { id: "en-us+m3", rate: 160, pitch: 45 },
  { id: "en-gb-x-rp+f2", rate: 160, pitch: 50 },
  { id: "en-us+m1", rate: 170, pitch: 35 },
  { id: "en-gb+m3", rate: 158, pitch: 50 },
  { id: "en-us-nyc+f4", rate: 172, pitch: 60 },
  { id: "en-gb-scotland+m2", rate: 155, pitch: 40 },
  { id: "en-us+f1", rate: 162, pitch: 65 },
  { id: "en-029+m4", rate: 160, pitch: 50 },
  { id: "en-gb+f5", rate: 165, pitch: 45 },
];

const VOICE_NAME = /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}(?:\+[A-Za-z0-9]{1,16})?$/;

function wasmPath(): string {
  const entry = createRequire(import.meta.url).resolve("espeak-ng");
  return path.join(path.dirname(entry), "espeak-ng.wasm");
}

/** An active data segment of the module: `length` bytes at `fileOffset` of the file go to `offset` of memory. */
export interface DataSegment {
  offset: number;
  fileOffset: number;
  length: number;
}

/**
 * The module's bytes without its data section, and where that section's segments are in the file. Reads by
 * position (`read(position, length)`), so the 18 MB of data never pass through a buffer of their own: a buffer
 * that large would stay allocated until the worker's next full GC, which a quiet worker may not have for long.
 */
export function splitDataSection(
  read: (position: number, length: number) => Uint8Array,
  size: number,
): { code: Uint8Array<ArrayBuffer>; segments: DataSegment[] } {
  let at = 8;
  const byte = () => read(at++, 1)[0]!;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let b: number;
    do {
      b = byte();
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return value;
  };
  const kept: Uint8Array[] = [read(0, 8).slice()];
  const segments: DataSegment[] = [];
  while (at < size) {
    const start = at;
    const id = byte();
    const length = leb();
    const end = at + length;
    // A data count section means instructions refer to segments by index (memory.init): they must stay.
    if (id === 12) throw new Error("espeak-ng: passive data segments are not supported");
    if (id !== 11) {
      kept.push(read(start, end - start).slice());
      at = end;
      continue;
    }
    const count = leb();
    for (let i = 0; i < count; i++) {
      // Only `i32.const N; end` offsets into memory 0 (flags 0), which is what Emscripten emits without PIC.
      if (leb() !== 0 || byte() !== 0x41) throw new Error("espeak-ng: unsupported data segment");
      let offset = 0;
      let shift = 0;
      let b: number;
      do {
        b = byte();
        offset |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      if (byte() !== 0x0b) throw new Error("espeak-ng: unsupported data segment offset");
      const bytes = leb();
      segments.push({ offset: offset >>> 0, fileOffset: at, length: bytes });
      at += bytes;
    }
    if (at !== end) throw new Error("espeak-ng: malformed data section");
  }
  const code = new Uint8Array(kept.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of kept) {
    code.set(part, offset);
    offset += part.length;
  }
  return { code, segments };
}

/** `splitDataSection` of the package's module file, read through a file descriptor. */
function readModuleFile(fd: number): { code: Uint8Array<ArrayBuffer>; segments: DataSegment[] } {
  return splitDataSection((position, length) => {
    const buffer = Buffer.allocUnsafe(length);
    if (readSync(fd, buffer, 0, length, position) !== length) throw new Error("espeak-ng: short read");
    return buffer;
  }, fstatSync(fd).size);
}

/** Writes the data segments into linear memory, straight from the file. */
function loadSegments(memory: Uint8Array, segments: readonly DataSegment[]): void {
  const fd = openSync(wasmPath(), "r");
  try {
    for (const { offset, fileOffset, length } of segments) {
      if (readSync(fd, memory, offset, length, fileOffset) !== length)
        throw new Error("espeak-ng: short read");
    }
  } finally {
    closeSync(fd);
  }
}

const PAGE = 4096;

/**
 * What linear memory held right after instantiation, outside eSpeak's data files: runs of 4 kB pages, each either
 * a copy of its bytes or known to be zero.
 */
interface ResetImage {
  copies: { offset: number; bytes: Uint8Array }[];
  zeros: { offset: number; length: number }[];
}

/** Whether the 4 kB page at `offset` is all zero (integer words: a float view would take -0 for zero). */
function isZeroPage(words: Uint32Array, offset: number): boolean {
  for (let i = offset / 4, end = (offset + PAGE) / 4; i < end; i++) if (words[i] !== 0) return false;
  return true;
}

/**
 * Zeroes the pages of a zero run that are not zero. Reading a page the instance never wrote maps the kernel's
 * shared zero page, writing it would give it memory of its own: so pages eSpeak never touches stay out of the
 * process's resident memory (~10 of the 32 MB), which an unconditional fill would not allow.
 */
function zeroDirtyPages(memory: Uint8Array, words: Uint32Array, offset: number, length: number): void {
  for (let page = offset; page < offset + length; page += PAGE) {
    if (!isZeroPage(words, page)) memory.fill(0, page, page + PAGE);
  }
}

function takeImage(memory: Uint8Array, readOnly: readonly { start: number; end: number }[]): ResetImage {
  const image: ResetImage = { copies: [], zeros: [] };
  const skipped = (page: number) =>
    readOnly.some((r) => r.start <= page * PAGE && (page + 1) * PAGE <= r.end);
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.byteLength / 4);
  const isZero = (page: number) => isZeroPage(words, page * PAGE);
  const pages = memory.length / PAGE;
  for (let page = 0; page < pages;) {
    if (skipped(page)) {
      page++;
      continue;
    }
    const zero = isZero(page);
    let last = page + 1;
    while (last < pages && !skipped(last) && isZero(last) === zero) last++;
    if (zero) image.zeros.push({ offset: page * PAGE, length: (last - page) * PAGE });
    else image.copies.push({ offset: page * PAGE, bytes: memory.slice(page * PAGE, last * PAGE) });
    page = last;
  }
  return image;
}

/** The data files Emscripten embedded (`__emscripten_embedded_file_data`: name, length, address; name 0 ends). */
function embeddedFiles(memory: Uint8Array, table: number): { start: number; end: number }[] {
  const words = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
  const files: { start: number; end: number }[] = [];
  for (let at = table; words.getUint32(at, true) !== 0; at += 12) {
    const length = words.getUint32(at + 4, true);
    const start = words.getUint32(at + 8, true);
    files.push({ start, end: start + length });
  }
  return files;
}

/** One instantiated module, the memory image it is reset to before each run, and the means to run `main()`. */
class EspeakRuntime {
  runs = 0;
  private readonly errors: string[] = [];
  private readonly image: ResetImage;
  /** Where eSpeak's data files sit in linear memory (read-only: never written, so never reset). */
  readonly dataFiles: readonly { start: number; end: number }[];

  private constructor(
    private readonly emscripten: EspeakModule,
    private readonly exports: WebAssembly.Exports,
  ) {
    const memory = new Uint8Array(this.memory.buffer);
    const table = (exports.__emscripten_embedded_file_data as WebAssembly.Global | undefined)?.value as
      number | undefined;
    this.dataFiles = table === undefined ? [] : embeddedFiles(memory, table);
    this.image = takeImage(memory, this.dataFiles);
  }

  /** `segments`: the data section `wasm` was compiled without (see `splitDataSection`). */
  static async create(wasm: WebAssembly.Module, segments: readonly DataSegment[]): Promise<EspeakRuntime> {
    let instance: WebAssembly.Instance | undefined;
    const errors: string[] = [];
    const emscripten = await ESpeakNg({
      noInitialRun: true,
      print: () => {},
      printErr: (line) => errors.push(line),
      instantiateWasm: (imports, receive) => {
        // eSpeak seeds rand() from the clock; a frozen clock (with the memory reset) makes every run identical.
        const env = imports.env as Record<string, unknown>;
        env.emscripten_date_now = () => FROZEN_CLOCK_MS;
        void WebAssembly.instantiate(wasm, imports).then((i) => {
          // What instantiation would have done with the data section, before Emscripten's start-up reads it.
          loadSegments(new Uint8Array((i.exports.memory as WebAssembly.Memory).buffer), segments);
          instance = i;
          receive(i);
        });
        return {};
      },
    });
    if (!instance) throw new Error("espeak-ng: the WASM instance was not handed over");
    const runtime = new EspeakRuntime(emscripten, instance.exports);
    runtime.errors.push(...errors);
    return runtime;
  }

  /** Linear memory as it is now (tests check that the data files stay as loaded). */
  get memoryBytes(): Uint8Array {
    return new Uint8Array(this.memory.buffer);
  }

  /** Bytes the reset image holds (the rest is zero or the data files). */
  get imageBytes(): number {
    return this.image.copies.reduce((n, c) => n + c.bytes.length, 0);
  }

  private get memory(): WebAssembly.Memory {
    return this.exports.memory as WebAssembly.Memory;
  }

  private call<T>(name: string, ...args: number[]): T {
    const fn = this.exports[name] as (...a: number[]) => T;
    return fn(...args);
  }

  /** Runs eSpeak's `main()` with `args` from the pristine memory image; throws if it exits or fails. */
  main(args: string[]): void {
    const memory = new Uint8Array(this.memory.buffer);
    for (const { offset, bytes } of this.image.copies) memory.set(bytes, offset);
    const words = new Uint32Array(this.memory.buffer);
    for (const { offset, length } of this.image.zeros) zeroDirtyPages(memory, words, offset, length);
    const all = ["espeak-ng", ...args];
    const pointers = all.map((arg) => {
      const bytes = Buffer.from(`${arg}\0`, "utf8");
      const p = this.call<number>("malloc", bytes.length);
      new Uint8Array(this.memory.buffer).set(bytes, p);
      return p;
    });
    const argv = this.call<number>("malloc", 4 * (all.length + 1));
    const table = new Uint32Array(this.memory.buffer, argv, all.length + 1);
    pointers.forEach((p, i) => (table[i] = p));
    table[all.length] = 0;
    this.runs++;
    this.errors.length = 0;
    let status: number;
    try {
      status = this.emscripten._main(all.length, argv);
    } catch (error) {
      throw new Error(`espeak-ng exited: ${this.errors.join(" ") || String(error)}`);
    }
    if (status !== 0) throw new Error(`espeak-ng failed (${status}): ${this.errors.join(" ")}`);
  }

  readFile(file: string): Uint8Array {
    const data = this.emscripten.FS.readFile(file);
    this.emscripten.FS.unlink(file);
    return data;
  }

  writeFile(file: string, data: string): void {
    this.emscripten.FS.writeFile(file, data);
  }
}

/** PCM of a RIFF/WAVE file (16-bit mono, as eSpeak writes it). */
export function parseWav(bytes: Uint8Array): { samples: Int16Array; sampleRate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    if (id === "fmt ") sampleRate = view.getUint32(offset + 12, true);
    if (id === "data") {
      // eSpeak patches the sizes on close; trust the file length, which is always right.
      const start = offset + 8;
      const count = Math.floor((bytes.length - start) / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(start + i * 2, true);
      return { samples, sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV file without data");
}

function trimToSpeech(samples: Int16Array, sampleRate: number): Int16Array {
  const v = voicedStructure(samples, sampleRate);
  if (v.first < 0) return samples.subarray(0, 0);
  const edge = Math.round((EDGE_MS * sampleRate) / 1000);
  const frame = (v.frameMs * sampleRate) / 1000;
  const start = Math.max(0, Math.floor(v.first * frame) - edge);
  const end = Math.min(samples.length, Math.ceil((v.last + 1) * frame) + edge);
  return samples.slice(start, end);
}

export class EspeakEngine implements SpeechEngine {
  readonly voices: readonly VoiceId[] = ESPEAK_VOICES.map((v) => v.id);
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  private runtime: EspeakRuntime | undefined;
  private instances = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly wasm: WebAssembly.Module,
    private readonly segments: readonly DataSegment[],
  ) {}

  static async create(): Promise<EspeakEngine> {
    const fd = openSync(wasmPath(), "r");
    let layout: { code: Uint8Array<ArrayBuffer>; segments: DataSegment[] };
    try {
      layout = readModuleFile(fd);
    } finally {
      closeSync(fd);
    }
    const wasm = await WebAssembly.compile(layout.code);
    const engine = new EspeakEngine(wasm, layout.segments);
    engine.runtime = await EspeakRuntime.create(wasm, layout.segments);
    engine.instances = 1;
    return engine;
  }

  /** WASM instances created so far: stays 1 while every sentence reuses the first (the fast path). */
  get instanceCount(): number {
    return this.instances;
  }

  /** The current instance (tests of its memory), if there is one. */
  get currentRuntime(): EspeakRuntime | undefined {
    return this.runtime;
  }

  synthesize(text: string, voice: VoiceId): Promise<SpeechClip> {
    const run = this.queue.then(() => this.synthesizeNow(text, voice));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async synthesizeNow(text: string, voice: VoiceId): Promise<SpeechClip> {
    if (!VOICE_NAME.test(voice)) throw new Error(`invalid voice name: ${voice}`);
    const tokens = speakableTokens(text);
    const spoken = tokens
      .map((t) => t.spoken)
      .filter((s) => s !== "")
      .join(" ");
    if (spoken.trim() === "") return { samples: new Int16Array(0), sampleRate: this.sampleRate, words: [] };
    const spec = ESPEAK_VOICES.find((v) => v.id === voice);
    const args = ["-v", voice, "-s", String(spec?.rate ?? 165), "-p", String(spec?.pitch ?? 50)];
    args.push("-a", String(AMPLITUDE), "-w", "/out.wav", "-f", "/in.txt");

    const wav = await this.runMain(args, spoken);
    const { samples: raw, sampleRate } = parseWav(wav);
    if (sampleRate !== this.sampleRate) throw new Error(`espeak-ng produced ${sampleRate} Hz audio`);
    const samples = trimToSpeech(raw, sampleRate);
    return { samples, sampleRate, words: estimateWordTimings(tokens, samples, sampleRate) };
  }

  private async runMain(args: string[], text: string): Promise<Uint8Array> {
    if (!this.runtime) {
      // Rare (after a failed run): the data section is read from the file again rather than kept for this.
      this.runtime = await EspeakRuntime.create(this.wasm, this.segments);
      this.instances++;
    }
    const runtime = this.runtime;
    try {
      runtime.writeFile("/in.txt", text);
      runtime.main(args);
      return runtime.readFile("/out.wav");
    } catch (error) {
      // A failed run may leave the module's JS side (open files, exit status) half-set: never reuse it.
      this.runtime = undefined;
      throw error;
    }
  }
}
