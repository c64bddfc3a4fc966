import { api } from '@/lib/api-client';
import { session } from '@/lib/session';

/** POST /api/auth/logout {refresh_token}. The caller clears the session whatever happens. */
export const logoutRequest = async (): Promise<void> => {
  const refreshToken = session.getRefreshToken();
  await api.post('/auth/logout', refreshToken ? { refresh_token: refreshToken } : {});
};
