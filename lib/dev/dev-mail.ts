import { MailDev } from 'maildev';
import { freePort } from '@/devtools/ports/free-port';

export type DevMail = { env: Record<string, string>; smtpPort: number; webPort: number; inboxUrl: string; stop: () => Promise<void> };

/**
 * `npm run dev`'s local mail catcher (issue 48 §3): maildev on 127.0.0.1, its SMTP given to the gateway as SMTP_URL
 * and its web inbox printed, so invoices, reminders and receipts can be read without a mail account. Every address is
 * allowed in test mode (EMAIL_TEST_RECIPIENTS=*): nothing leaves this machine. Tests start theirs the same way.
 */
export async function startDevMail(ports?: { smtp: number; web: number }): Promise<DevMail> {
  // A probed port can be taken before maildev binds it (other processes start servers too): try fresh ones.
  for (let attempt = 1; ; attempt++) {
    const smtp = ports?.smtp ?? (await freePort());
    const web = ports?.web ?? (await freePort());
    if (smtp === web) continue;
    const maildev = new MailDev({ smtp, web, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true } as never);
    try {
      await maildev.start();
    } catch (err) {
      await maildev.stop().catch(() => {});
      if (ports || attempt >= 5) throw err;
      continue;
    }
    return {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp}`, EMAIL_TEST_RECIPIENTS: '*' },
      smtpPort: smtp,
      webPort: web,
      inboxUrl: `http://localhost:${web}`,
      stop: async () => {
        await maildev.stop();
      },
    };
  }
}
