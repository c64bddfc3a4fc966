export { AuthProvider, AuthContextStub, useAuth, type AuthContextValue, type AuthStatus } from './auth-provider';
export { getMe, meQueryKey, meQueryOptions } from './api/get-me';
