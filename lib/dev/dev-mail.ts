import { createServer } from 'node:net';
import { MailDev } from 'maildev';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/**
 * `npm run dev`'s local mail catcher (issue 48 §3): maildev on 127.0.0.1, its SMTP given to the gateway as SMTP_URL
 * and its web inbox printed, so invoices, reminders and receipts can be read without a mail account. Every address is
 * allowed in test mode (EMAIL_TEST_RECIPIENTS=*): nothing leaves this machine.
 */
export async function startDevMail(): Promise<{ env: Record<string, string>; inboxUrl: string; stop: () => Promise<void> }> {
  const [smtp, web] = [await freePort(), await freePort()];
  const maildev = new MailDev({ smtp, web, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true } as never);
  await maildev.start();
  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp}`, EMAIL_TEST_RECIPIENTS: '*' },
    inboxUrl: `http://localhost:${web}`,
    stop: async () => {
      await maildev.stop();
    },
  };
}
