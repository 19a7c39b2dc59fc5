import type { ExecutionArgs } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { remainingMs, withDeadline } from '../deadline.js';
import { AppError } from '../errors.js';

/**
 * Bounds every GraphQL operation's execution by `ms` (REQUEST_TIMEOUT_MS), as `withDeadline` does
 * for REST: past it the response is a TIMEOUT error with HTTP 504, and the operation's database
 * statements are cancelled. Install it after any plugin that replaces the execute function (JIT).
 */
export function timeLimitPlugin(ms: number): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args: ExecutionArgs) => {
        const request = (args.contextValue as { request?: Request } | undefined)?.request;
        return withDeadline(remainingMs(request, ms), request?.signal, async () => executeFn(args), ms).catch((err: unknown) => {
          if (err instanceof AppError) return { errors: [err] };
          throw err;
        });
      });
    },
  };
}
