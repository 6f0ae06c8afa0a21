// Types danfojs-node's declarations import from "xlsx"; the stub's functions all throw.
export type ParsingOptions = Record<string, unknown>;
export type WritingOptions = Record<string, unknown>;
export declare function read(data: unknown, options?: ParsingOptions): never;
export declare function readFile(path: string, options?: ParsingOptions): never;
export declare function write(book: unknown, options?: WritingOptions): never;
export declare function writeFile(book: unknown, path: string, options?: WritingOptions): never;
export declare const utils: Record<string, (...args: unknown[]) => never>;
