// The npm `espeak-ng` package ships no types: only what espeak-engine.ts uses of its Emscripten module.
declare module "espeak-ng" {
  export interface EspeakFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
  }
  export interface EspeakModule {
    FS: EspeakFs;
    _main(argc: number, argv: number): number;
  }
  export interface EspeakModuleOptions {
    arguments?: string[];
    noInitialRun?: boolean;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance) => void,
    ) => Record<string, never>;
  }
  const factory: (options?: EspeakModuleOptions) => Promise<EspeakModule>;
  export default factory;
}
