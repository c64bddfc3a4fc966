// mailparser ships no types and @types/mailparser is not installed: the small part we use.
declare module 'mailparser' {
  interface AddressObject {
    text: string;
  }
  export interface ParsedMail {
    subject?: string;
    to?: AddressObject | AddressObject[];
    text?: string;
    html?: string | false;
  }
  export function simpleParser(source: Buffer | string | NodeJS.ReadableStream): Promise<ParsedMail>;
}
