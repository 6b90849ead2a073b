/**
 * Finds and reads a transcript file of `EMBEDDED_TRANSCRIPTS_DIR` by its bare name. Nothing outside the folder can be
 * named: the name is a file name of the corpus's shape (`<TICKER>_q<N>_<YEAR>.json`, no separator, no `..`), and the
 * real path of what it names (symbolic links followed) must lie in the folder's real path.
 */
import { promises as fs } from "node:fs";
import { basename, join, sep } from "node:path";
import {
  parseTranscriptFile,
  parseTranscriptName,
  TranscriptFileError,
  type TranscriptFile,
} from "./transcript-file";

/** Larger than any real call's transcript (the corpus's largest is well under 1 MB), smaller than a mistake. */
const MAX_BYTES = 5 * 1024 * 1024;

/** A request the folder cannot answer: `status` 400 (the name or the file is wrong) or 404 (no such file). */
export class TranscriptRequestError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export async function loadTranscript(folder: string, fileName: string): Promise<TranscriptFile> {
  if (fileName !== basename(fileName) || fileName.includes("\\") || fileName.startsWith("."))
    throw new TranscriptRequestError(
      400,
      "transcript must be a file name in EMBEDDED_TRANSCRIPTS_DIR, not a path",
    );
  const name = parseTranscriptName(fileName);
  if (!name)
    throw new TranscriptRequestError(
      400,
      `transcript must be named <TICKER>_q<N>_<YEAR>.json (the ticker, fiscal quarter and year of the call): ${fileName}`,
    );
  const notFound = () =>
    new TranscriptRequestError(404, `no transcript file ${fileName} in EMBEDDED_TRANSCRIPTS_DIR`);
  let path: string;
  try {
    const root = await fs.realpath(folder);
    path = await fs.realpath(join(root, fileName));
    if (!path.startsWith(root + sep)) throw notFound();
    const stat = await fs.stat(path);
    if (!stat.isFile()) throw notFound();
    if (stat.size > MAX_BYTES)
      throw new TranscriptRequestError(400, `${fileName} is larger than ${MAX_BYTES / 1024 / 1024} MB`);
  } catch (error) {
    if (error instanceof TranscriptRequestError) throw error;
    throw notFound();
  }
  try {
    return parseTranscriptFile(name, await fs.readFile(path, "utf8"));
  } catch (error) {
    if (error instanceof TranscriptFileError)
      throw new TranscriptRequestError(400, `${fileName} cannot be replayed: ${error.message}`);
    throw error;
  }
}
