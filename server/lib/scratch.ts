// Local scratch space for files on their way into (or out of) the file storage: an upload being checked
// before it is stored, a picture sharp reads, a sheet the parser workers read by path. It is under the
// instance's own DATA_DIR (sized for files, unlike a /tmp that may live in memory), never shared
// between instances; each file has a random name and is removed by whoever made it.
import path from 'node:path';

export const scratchDir = (dataDir: string) => path.join(dataDir, 'tmp');
