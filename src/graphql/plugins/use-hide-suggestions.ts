import { validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Validates without "Did you mean ...?" suggestions, which name fields, arguments and types that a
 * client could not otherwise list once introspection is off.
 */
export function useHideSuggestions(): Plugin {
  return {
    onValidate({ setValidationFn }) {
      setValidationFn((schema, document, rules) => validate(schema, document, rules, { hideSuggestions: true }));
    },
  };
}
