import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/graphql/plugins/use-parse-limits.js';

describe('nestsDeeperThan', () => {
  it('counts braces, brackets and parentheses together', () => {
    expect(nestsDeeperThan('{ a(b: [{ c: 1 }]) }', 4)).toBe(false);
    expect(nestsDeeperThan('{ a(b: [{ c: 1 }]) }', 3)).toBe(true);
  });

  it('measures the deepest point, not the total of brackets', () => {
    expect(nestsDeeperThan('{ a { b } c { d } e { f } }', 2)).toBe(false);
  });

  it('ignores brackets in strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{ a(s: "{{{\\"{{{") }', 2)).toBe(false);
    expect(nestsDeeperThan('{ a(s: "\\\\") { b { c } } }', 2)).toBe(true);
  });

  it('ignores brackets in block strings, up to the unescaped closing quotes', () => {
    expect(nestsDeeperThan('{ a(s: """ {{ \\""" {{ """) }', 2)).toBe(false);
    expect(nestsDeeperThan('{ a(s: """ {{ """) { b { c } } }', 2)).toBe(true);
  });

  it('ignores brackets in comments until the line ends', () => {
    expect(nestsDeeperThan('{ # {{{{\n a }', 1)).toBe(false);
    expect(nestsDeeperThan('{ # {{{{\r a { b } }', 1)).toBe(true);
  });

  it('ends an unterminated string at its line end', () => {
    expect(nestsDeeperThan('{ a(s: "{{\n) { b { c } } }', 2)).toBe(true);
  });
});
