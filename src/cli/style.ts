/**
 * Terminal styling through Node's `util.styleText`, only when stdout is a colour-capable TTY and
 * `NO_COLOR` is unset; plain text otherwise (pipes, CI logs, tests).
 */
import { styleText } from 'node:util';

type Format = Parameters<typeof styleText>[0];

/** Whether output should be coloured. */
export function colourEnabled(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

/** `text` in `format` when `on`, unchanged otherwise. */
export function paint(on: boolean, format: Format, text: string): string {
  return on ? styleText(format, text) : text;
}
