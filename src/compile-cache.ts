/**
 * Imported first by the entry points (the server, the engine's thread): turns on Node's on-disk
 * cache of compiled modules (`module.enableCompileCache`, Node 22.1+, in the system's temporary
 * directory), so a restart reads the compiled code of the modules loaded after this one instead
 * of compiling them again. Without effect on older Node versions or where the cache cannot be written.
 */
import * as nodeModule from 'node:module';

const enable: (() => unknown) | undefined = Reflect.get(nodeModule, 'enableCompileCache');
enable?.();
