'use client';

import { useRouter } from 'next/navigation';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { API_VERSION_HEADER, LATEST_API_VERSION, versionsAfter, type ApiVersion } from '@/lib/api/versions';
import { upgradeApiVersionAction } from './api-version-actions';

/**
 * The account's dated API version and, when a newer one exists, what upgrading to the latest changes: the owner
 * reads the list before confirming, since integrations that follow the account see the new names at once.
 */
export function ApiVersionPanel({ version, canEdit }: { version: ApiVersion; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const newer = versionsAfter(version);
  const changes = (
    <ul className="mt-1 list-disc space-y-1 pl-5 text-xs text-slate-600">
      {newer.flatMap((v) => v.changes.map((c, i) => <li key={`${v.version}-${i}`}>{`${v.version} (${v.title}): ${c}`}</li>))}
    </ul>
  );
  return (
    <div className="text-sm text-slate-700" data-testid="api-version-panel">
      <p>
        API version{' '}
        <span className="font-mono font-medium text-slate-900" data-testid="api-version">
          {version}
        </span>
        {newer.length === 0 ? ' (latest)' : ` · latest ${LATEST_API_VERSION}`}
      </p>
      <p className="mt-1 text-xs text-slate-500">
        Requests and webhooks use it unless an API key or an endpoint has a version of its own, or a request sends the {API_VERSION_HEADER} header.
      </p>
      {newer.length > 0 && (
        <div className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-3">
          <p className="text-xs font-semibold text-amber-900">Upgrading to {LATEST_API_VERSION} changes:</p>
          {changes}
          {canEdit ? (
            <div className="mt-2">
              <ConfirmButton
                label={`Upgrade to ${LATEST_API_VERSION}`}
                variant="primary"
                title={`Upgrade the API version to ${LATEST_API_VERSION}?`}
                body={
                  <>
                    <p>
                      From the next request and the next webhook delivery, keys and endpoints without a version of their own use {LATEST_API_VERSION}:
                    </p>
                    {changes}
                    <p className="mt-2">
                      The account&apos;s version cannot go back. To keep an integration on {version} meanwhile, give its endpoint or key that version.
                    </p>
                  </>
                }
                confirmLabel="Upgrade"
                onConfirm={async () => {
                  const res = await upgradeApiVersionAction({ apiVersion: LATEST_API_VERSION });
                  toast(res.ok ? `API version is now ${LATEST_API_VERSION}` : res.error.message, res.ok ? 'success' : 'error');
                  router.refresh();
                }}
              />
            </div>
          ) : (
            <p className="mt-2 text-xs text-slate-500">Only the account owner can upgrade it.</p>
          )}
        </div>
      )}
    </div>
  );
}
