// An XLSX workbook's shared strings (each distinct text once; cells name it by its number), kept for
// as long as the worksheet is read. They are stored as UTF-8 in one buffer with their end offsets,
// outside the JavaScript heap, rather than as an array of strings: a 100,000-row sheet can hold
// 300,000 of them, which as strings cost ~50 MB of heap (a header and padding each) for ~12 MB of
// text, and a hostile workbook could hold hundreds of MB of them, which would press the server's heap
// ceiling (scripts/server-node-args.mjs). A cell's text is decoded when the reader asks for it.

export class SharedStringTable {
  private data = Buffer.allocUnsafe(256 * 1024);
  private used = 0;
  private ends = new Uint32Array(4096);
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(text: string): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.used + bytes > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.data.length * 2, this.used + bytes));
      this.data.copy(grown, 0, 0, this.used);
      this.data = grown;
    }
    this.used += this.data.write(text, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    return this.data.toString('utf8', start, this.ends[index]);
  }

  /** The table as exceljs's worksheet reader reads it: `sharedStrings[n]`. */
  indexable(): ArrayLike<string> {
    return new Proxy({} as ArrayLike<string>, {
      get: (_target, key) => {
        if (key === 'length') return this.count;
        return typeof key === 'string' ? this.at(Number(key)) : undefined;
      },
    });
  }
}
