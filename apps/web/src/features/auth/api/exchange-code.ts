import { TokenPair } from '@hookreel/contracts';
import { api } from '@/lib/api-client';

/**
 * POST /api/auth/exchange {code}: the one-time code from the sign-in callback URL, plus the sign-in cookie
 * only this browser holds, buy the token pair. Tokens never travel in a URL.
 */
export async function exchangeSignInCode(code: string): Promise<TokenPair> {
  return TokenPair.parse(await api.post('/auth/exchange', { code }));
}
