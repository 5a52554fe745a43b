import Link from 'next/link';
import { Card, PageHeader } from '@/components/ui/card';
import { Time } from '@/components/ui/time';
import { listPendingInvitations, listTeam } from '@/lib/auth/invitations';
import { recoveryCodesLeft } from '@/lib/auth/two-factor';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { Decimal } from '@/lib/money';
import { getPostbackSecret } from '@/lib/webhooks/get-postback-secret';
import { listWithdrawalControls } from '@/lib/withdrawal-controls/list-withdrawal-controls';
import { dailyLimitUsed } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { AutoRefundPolicyForm, PostbackSecretPanel, TenantNameForm, UnderpaymentToleranceForm } from './account-forms';
import { WrongNetworkPolicyForm } from './wrong-network-form';
import { RefundNetworkFeeForm } from './refund-fee-form';
import { RailsForm } from './rails-form';
import { ApiVersionPanel } from './api-version-panel';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { storedApiVersion, LATEST_API_VERSION } from '@/lib/api/versions';
import { gatewayRails, tenantRails } from '@/lib/tenants/tenant-rails';
import { SecurityPanel } from './security-panel';
import { TeamPanel } from './team-panel';
import { WithdrawalControlsPanel } from './withdrawal-controls-panel';

export const metadata = { title: 'Settings' };

const pct = (rate: string) => `${new Decimal(rate).times(100).toFixed()}%`;

export default async function SettingsPage() {
  const ctx = await requireContext();
  const owner = can(ctx.user.role, 'settings:manage');
  const [postback, team, invites, codesLeft, controls, dailyUsed, tenant] = await Promise.all([
    getPostbackSecret(ctx.db, ctx.owner),
    listTeam(ctx.db, ctx.tenant.id),
    owner ? listPendingInvitations(ctx.db, ctx.tenant.id) : Promise.resolve([]),
    recoveryCodesLeft(ctx.db, ctx.user.id),
    listWithdrawalControls(ctx.db, ctx.owner),
    dailyLimitUsed(ctx.db, ctx.owner),
    getTenantOrThrow(ctx.db, ctx.tenant.id),
  ]);
  return (
    <>
      <PageHeader
        title="Settings"
        actions={
          <Link href="/dashboard/settings/activity" className="text-sm font-medium text-indigo-600 hover:underline">
            Activity log →
          </Link>
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Business">
          <TenantNameForm name={ctx.tenant.name} canEdit={owner} />
          <div className="mt-4">
            <UnderpaymentToleranceForm percent={new Decimal(ctx.tenant.underpaymentTolerancePercent).toFixed()} canEdit={owner} />
          </div>
          <div className="mt-4">
            <AutoRefundPolicyForm
              policy={{
                enabled: ctx.tenant.autoRefundOverpayments,
                enabledAt: ctx.tenant.autoRefundEnabledAt?.toISOString() ?? null,
                delaySeconds: ctx.tenant.autoRefundDelaySeconds,
                maxMultiple: new Decimal(ctx.tenant.autoRefundMaxMultiple).toFixed(),
                maxAmount: new Decimal(ctx.tenant.autoRefundMaxAmount).toFixed(),
              }}
              totpEnabled={ctx.user.totpEnabled}
              canEdit={owner}
            />
          </div>
          <div className="mt-4">
            <RefundNetworkFeeForm payer={ctx.tenant.refundNetworkFeePayer} canEdit={owner} />
          </div>
          <div className="mt-4">
            <WrongNetworkPolicyForm policy={ctx.tenant.wrongNetworkPolicy} canEdit={owner} />
          </div>
          <div className="mt-4">
            <RailsForm offered={gatewayRails(ctx.mode)} accepted={tenantRails(ctx.tenant, ctx.mode)} canEdit={owner} />
          </div>
          <dl className="mt-4 grid grid-cols-2 gap-4 border-t border-slate-100 pt-4 text-sm">
            <div>
              <dt className="text-slate-500">Invoice fee</dt>
              <dd className="mt-0.5 text-slate-900" data-testid="invoice-fee">
                {pct(ctx.tenant.invoiceFeeRate)} of each settled invoice
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Withdrawal fee</dt>
              <dd className="mt-0.5 text-slate-900">{pct(ctx.tenant.withdrawalFeeRate)} on top of each withdrawal</dd>
            </div>
            <div className="col-span-2 text-xs text-slate-500">
              Fee rates are set by the gateway operator. Account id <span className="font-mono">{ctx.tenant.id}</span>
            </div>
          </dl>
        </Card>
        <Card title="API version">
          <ApiVersionPanel version={storedApiVersion(tenant.apiVersion) ?? LATEST_API_VERSION} canEdit={owner} />
        </Card>
        <Card title={`Postback secret (${ctx.mode})`}>
          <PostbackSecretPanel status={postback} canReveal={can(ctx.user.role, 'secrets:reveal')} />
        </Card>
        <Card title="Team" className="lg:col-span-2">
          <TeamPanel
            currentUserId={ctx.user.id}
            canManage={can(ctx.user.role, 'team:manage')}
            members={team.map((m) => ({ ...m, createdAt: m.createdAt.toISOString(), lastLoginAt: m.lastLoginAt?.toISOString() ?? null }))}
            invites={invites.map((i) => ({ id: i.id, email: i.email, expiresAt: i.expiresAt.toISOString() }))}
          />
        </Card>
        <Card title={`Withdrawal controls (${ctx.mode})`} className="lg:col-span-2">
          <WithdrawalControlsPanel data={controls} dailyUsed={dailyUsed} totpEnabled={ctx.user.totpEnabled} canManage={owner} />
        </Card>
        <Card title="Your security" className="lg:col-span-2">
          <p className="mb-3 text-sm text-slate-500">
            Signed in as {ctx.user.email}. Session ends <Time iso={ctx.expiresAt.toISOString()} />.
          </p>
          <SecurityPanel enabled={ctx.user.totpEnabled} codesLeft={codesLeft} />
        </Card>
      </div>
    </>
  );
}
