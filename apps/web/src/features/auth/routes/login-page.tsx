import { Link } from 'react-router';
import { AuthCard } from '../components/auth-layout';

export function LoginPage() {
  return (
    <AuthCard
      title="Login"
      description="Welcome back. Sign in to keep creating."
      footer={
        <p>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            Register
          </Link>
        </p>
      }
    />
  );
}
