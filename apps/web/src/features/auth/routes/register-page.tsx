import { Link } from 'react-router';
import { AuthCard } from '../components/auth-layout';

export function RegisterPage() {
  return (
    <AuthCard
      title="Create an account"
      description="Start making AI UGC video ads in minutes."
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Login
          </Link>
        </p>
      }
    />
  );
}
