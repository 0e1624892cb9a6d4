import { AuthForm } from "./AuthForm";
import { SsoSecondStep, ssoSecondStep } from "./SsoSecondStep";

export default function LoginPage() {
  const step = ssoSecondStep();
  return step ? <SsoSecondStep step={step} /> : <AuthForm mode="login" />;
}
