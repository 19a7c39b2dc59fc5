/**
 * Imported first by the entry points (the server, the engine's thread): turns on Node's on-disk
 * cache of compiled modules (`module.enableCompileCache`, in the system's temporary directory),
 * so a restart reads the compiled code of the modules loaded after this one instead of compiling
 * them again. Without effect where the platform cannot cache.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
