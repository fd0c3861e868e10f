import { Link } from "@/components/ui/link";
import { Alert, Card, Badge, ButtonLink } from "@/components/ui";
import { currentUser } from "@/lib/portal/authorize";
import { navItemsFor } from "@/components/shell/nav-items";
import styles from "@/components/shell/shell.module.css";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function HomePage({ searchParams }: Props) {
  const user = await currentUser();
  const { signedOut } = await searchParams;
  if (!user) {
    return (
      <div className={`stack ${styles.notice}`}>
        {signedOut ? <Alert tone="success">You are signed out.</Alert> : null}
        <h1>Platform portal</h1>
        <p className="muted" data-testid="signed-out">
          You are not signed in. Sign in to browse the catalog, order apps and inspect offers.
        </p>
        <div>
          <ButtonLink href="/auth/signin" variant="primary">
            Sign in
          </ButtonLink>
        </div>
      </div>
    );
  }
  return (
    <div className="stack">
      <h1>Welcome, {user.name}</h1>
      <div className="row">
        <span className="muted">Your roles:</span>
        {user.roles.map((role) => (
          <Badge key={role} tone="accent">
            {role}
          </Badge>
        ))}
      </div>
      <div className="home-grid">
        {navItemsFor(user).map((item) => (
          <Card key={item.href}>
            <h2>
              <Link href={item.href}>{item.label}</Link>
            </h2>
            <p className="muted">{item.description}</p>
          </Card>
        ))}
        <Card>
          <h2>
            <Link href="/tokens">API tokens</Link>
          </h2>
          <p className="muted">
            Personal tokens for scripts and CI: <code>Authorization: Bearer …</code>
          </p>
        </Card>
      </div>
    </div>
  );
}
