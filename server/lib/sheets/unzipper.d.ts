// The part of unzipper (a dependency of exceljs, pinned to the same version) that sheets use: the
// central directory of a zip, read from the end of the file, and each entry streamed from its offset.
declare module 'unzipper' {
  import type { Readable } from 'node:stream';

  export interface CentralDirectoryEntry {
    path: string;
    type: 'File' | 'Directory';
    compressionMethod: number;
    compressedSize: number;
    uncompressedSize: number;
    flags: number;
    offsetToLocalFileHeader: number;
    /** The entry's content, inflated. */
    stream(password?: string): Readable;
  }

  export interface CentralDirectory {
    files: CentralDirectoryEntry[];
  }

  /** Random access to the zip's bytes: `stream(offset)` reads from `offset` to the end. */
  export interface ZipSource {
    size(): Promise<number>;
    stream(offset: number, length?: number): Readable;
  }

  const unzipper: {
    Open: {
      file(path: string, options?: { tailSize?: number }): Promise<CentralDirectory>;
      custom(source: ZipSource, options?: { tailSize?: number }): Promise<CentralDirectory>;
    };
  };
  export default unzipper;
}
