import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isTimeoutError, pastDeadline, remainingMs, timeoutError, withDeadline } from '../../deadline.js';
import { AppError } from '../../errors.js';
import { clientClosedError, isClientGone, logClientClosed } from '../../http/client-closed.js';
import type { Logger } from '../../logger.js';

/** Whether a resolver of the result failed on a time limit (the database's statement timeout, a pool wait). */
function timedOutInResolvers(result: unknown): boolean {
  const errors = (result as { errors?: readonly GraphQLError[] } | null)?.errors;
  return errors?.some((e) => isTimeoutError(e.originalError ?? e)) ?? false;
}

/**
 * Bounds every GraphQL operation's execution by `ms` (REQUEST_TIMEOUT_MS), as `withDeadline` does
 * for REST: past it the response is a TIMEOUT error with HTTP 504, and the operation's database
 * statements are cancelled; a resolver's database timeout at the deadline answers the same. Install
 * it after any plugin that replaces the execute function (JIT). A client that leaves ends the
 * operation at once (CLIENT_CLOSED, 499), logged once at info level as `client closed`.
 */
export function useTimeLimit(ms: number, logger?: Logger): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args: ExecutionArgs) => {
        const request = (args.contextValue as { request?: Request } | undefined)?.request;
        const [left, started] = [remainingMs(request, ms), performance.now()];
        return withDeadline(left, request?.signal, async () => executeFn(args), ms).then(
          (result) =>
            timedOutInResolvers(result) && pastDeadline(started, left) ? { errors: [timeoutError(ms)] } : result,
          (err: unknown) => {
            if (request && isClientGone(request, err)) {
              if (logger) logClientClosed(request, logger);
              return { errors: [clientClosedError()] };
            }
            if (err instanceof AppError) return { errors: [err] };
            throw err;
          },
        );
      });
    },
  };
}
