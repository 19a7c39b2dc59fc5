import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { AppError, InputError } from '../errors.js';
import { bordersEndpoint } from '../rest/endpoints/catalogue.js';
import { flowTypeSummaryEndpoint } from '../rest/endpoints/flow-aggregates.js';
import { flowsEndpoint } from '../rest/endpoints/flows.js';
import { pricesEndpoint } from '../rest/endpoints/prices.js';
import { priceKpisEndpoint } from '../rest/endpoints/zone-aggregates.js';
import { toolName } from './tools.js';

interface PromptDecl extends Prompt {
  text(args: Readonly<Record<string, string>>): string;
}

const RANGE_ARGS = [
  { name: 'datetime_from', description: 'Start of the period (ISO 8601 or now-7d).', required: false },
  { name: 'datetime_to', description: 'End of the period, exclusive (ISO 8601 or now).', required: false },
] as const;

const range = (a: Readonly<Record<string, string>>) =>
  `datetime_from=${a.datetime_from ?? 'now-7d'} and datetime_to=${a.datetime_to ?? 'now'}`;

/** Prompts for common analyses; each names the tools (derived names) and arguments to use. */
export const PROMPTS: readonly PromptDecl[] = [
  {
    name: 'counter_intuitive_flows',
    title: 'Counter-intuitive flows on a border',
    description: 'Which hours a border flowed against the price signal over a period, how many, and how large.',
    arguments: [{ name: 'border', description: 'Border written A->B, e.g. DE_LU->FR.', required: true }, ...RANGE_ARGS],
    text: (a) =>
      [
        `Analyse counter-intuitive flows on the border ${a.border} for ${range(a)}.`,
        `1. Read the resource eumarket://classification/rules for the definitions and thresholds.`,
        `2. Call ${toolName(flowTypeSummaryEndpoint)} with border=["${a.border}"], ${range(a)}, resolution=1D for the hours of each flow type per day.`,
        `3. Call ${toolName(flowsEndpoint)} with border=["${a.border}"], flow_type=["counter_intuitive"], the same range and resolution=native to list the hours (page with row_offset when total_rows exceeds the returned rows).`,
        'Report the number of counter-intuitive hours, their share of all hours, the largest flows (MW) and price spreads (EUR/MWh), and the days with most of them.',
      ].join('\n'),
  },
  {
    name: 'spread_and_congestion',
    title: 'Price spread and congestion between two zones',
    description: 'The day-ahead price spread between two neighbouring zones and how often their border was congested.',
    arguments: [
      { name: 'zone_a', description: 'First bidding zone, e.g. DE_LU.', required: true },
      { name: 'zone_b', description: 'Second bidding zone, e.g. FR.', required: true },
      ...RANGE_ARGS,
    ],
    text: (a) =>
      [
        `Compare ${a.zone_a} and ${a.zone_b} for ${range(a)}.`,
        `1. Call ${toolName(bordersEndpoint)} with border=["${a.zone_a}->${a.zone_b}"] to check the border exists and its data coverage.`,
        `2. Call ${toolName(pricesEndpoint)} with zone=["${a.zone_a}","${a.zone_b}"], ${range(a)}, resolution=1D for daily mean prices (EUR/MWh).`,
        `3. Call ${toolName(flowTypeSummaryEndpoint)} with border=["${a.zone_a}->${a.zone_b}"] and the same range for congestion hours per day.`,
        'Report the mean and extreme daily spread (EUR/MWh), the share of congested hours, and whether the spread and congestion move together.',
      ].join('\n'),
  },
  {
    name: 'price_overview',
    title: 'Price overview of a zone',
    description:
      'Key price statistics of one bidding zone over a period: mean, peak/off-peak, volatility, negative hours.',
    arguments: [{ name: 'zone', description: 'Bidding zone, e.g. DE_LU.', required: true }, ...RANGE_ARGS],
    text: (a) =>
      [
        `Summarise day-ahead prices of ${a.zone} for ${range(a)}.`,
        `1. Call ${toolName(priceKpisEndpoint)} with zone=["${a.zone}"] and ${range(a)}.`,
        `2. Call ${toolName(pricesEndpoint)} with zone=["${a.zone}"], the same range and resolution=1D for the daily profile.`,
        'Report mean, peak and off-peak prices (EUR/MWh), the spread between them, the number of negative hours and the most extreme days.',
      ].join('\n'),
  },
];

/** A prompt's messages. @throws AppError NOT_FOUND for an unknown name, InputError for a missing required argument */
export function getPrompt(name: string, args: Readonly<Record<string, string>> = {}): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt)
    throw new AppError('NOT_FOUND', `Unknown prompt ${name}; prompts: ${PROMPTS.map((p) => p.name).join(', ')}`);
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]);
  if (missing.length)
    throw new InputError(missing.map((a) => ({ param: a.name, msg: 'Field required', type: 'missing' })));
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
  };
}

/** The prompt list (without their texts). */
export const promptList = (): Prompt[] => PROMPTS.map(({ text: _text, ...p }) => p);
