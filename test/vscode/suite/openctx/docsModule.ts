// The team-docs provider as a local module (bundled to CommonJS with its provider as the default
// export), loaded by Agent Link from its file:// URL.
import { teamDocs } from './providers';

export default teamDocs;
