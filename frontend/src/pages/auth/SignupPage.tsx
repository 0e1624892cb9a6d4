import { AuthForm } from "./AuthForm";

export default function SignupPage() {
  return <AuthForm mode="signup" />;
}
