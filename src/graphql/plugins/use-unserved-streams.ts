import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * Ends a subscription stream that no result processor will send (the request accepts no event
 * stream: Yoga answers 406), so that it gives back what it holds (the client's stream slot).
 * Install after Yoga's own processors, i.e. anywhere in the plugin list.
 */
export function useUnservedStreams(): Plugin {
  return {
    onResultProcess({ result, resultProcessor }) {
      if (resultProcessor || !isAsyncIterable(result)) return;
      const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      Promise.resolve(iterator.return?.()).catch(() => undefined);
    },
  };
}
