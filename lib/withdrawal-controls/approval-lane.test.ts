import { erc20Abi, parseUnits, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { userActor } from '@/lib/audit/audit-merchant-action';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { withTestChain } from '@/lib/testing/test-chain';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { createUser } from '@/lib/users/create-user';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { decideWithdrawalApproval } from './decide-withdrawal-approval';
import { updateWithdrawalControls } from './update-withdrawal-controls';

let chain: AnvilChain;
let net: LaneNetwork;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test') as LaneNetwork;
  await chain.mint(chain.addresses.hot, '100000');
});

const freshAddress = (): Address => `0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq)).toString(16).padStart(40, '0')}` as Address;
const received = async (to: Address) =>
  (await chain.client.getContractEvents({ address: chain.token, abi: erc20Abi, eventName: 'Transfer', args: { to }, fromBlock: 0n })).reduce(
    (s, l) => s + l.args.value!,
    0n,
  );

describe('approval and the sending lane', () => {
  it('a held withdrawal is never sent; once approved it is sent exactly once', async () => {
    const t = await fundedTenant('100');
    const user = await createUser(t.db, {
      email: `apl-${process.pid}-${++seq}@example.com`,
      password: 'correct horse battery',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const s = { owner: { tenantId: t.tenant.id, mode: 'test' as const }, user, actor: userActor({ user }) };
    await updateWithdrawalControls(t.db, s, { allowlistEnabled: false, coolingOffHours: 24, dailyLimit: null, approvalThreshold: '5' });
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '7.00', destinationAddress: to } });
    expect(res.body.pendingReason).toBe('awaiting_approval');

    for (let i = 0; i < 2; i++) {
      await processWithdrawals(t.db, net);
      await chain.mine(5);
    }
    expect(await received(to)).toBe(0n);
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'awaiting_approval',
    });

    await decideWithdrawalApproval(t.db, s, res.body.id, 'approve', {});
    for (let i = 0; i < 3; i++) {
      await processWithdrawals(t.db, net);
      await chain.mine(5);
    }
    await processWithdrawals(t.db, net);
    expect(await received(to)).toBe(parseUnits('7', 18));
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
  });
});
