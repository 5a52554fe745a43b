'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createWebhookEndpoint } from '@/lib/webhooks/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '@/lib/webhooks/delete-webhook-endpoint';
import { recoverWebhookDeliveries } from '@/lib/webhooks/recover-webhook-deliveries';
import { replayEvent } from '@/lib/webhooks/replay-event';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';
import { CreateWebhookEndpointBody, RecoverBody, RotateSecretBody, UpdateWebhookEndpointBody } from '@/lib/webhooks/schemas';
import { testWebhookEndpoint } from '@/lib/webhooks/test-webhook-endpoint';
import { updateWebhookEndpoint } from '@/lib/webhooks/update-webhook-endpoint';

const refresh = () => {
  revalidatePath('/dashboard/webhooks');
  revalidatePath('/dashboard/webhooks/deliveries');
};

export async function createEndpointAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const ep = await createWebhookEndpoint(ctx.db, ctx.owner, CreateWebhookEndpointBody.parse(input));
    refresh();
    return ep;
  });
}

export async function updateEndpointAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const ep = await updateWebhookEndpoint(ctx.db, { id, ...ctx.owner }, UpdateWebhookEndpointBody.parse(input));
    refresh();
    return ep;
  });
}

export async function deleteEndpointAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const out = await deleteWebhookEndpoint(ctx.db, { id, ...ctx.owner });
    refresh();
    return out;
  });
}

export async function rotateSecretAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const body = RotateSecretBody.parse(input);
    return rotateWebhookSecret(ctx.db, { id, ...ctx.owner }, body, userActor(ctx));
  });
}

export async function testEndpointAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const result = await testWebhookEndpoint(ctx.db, { id, ...ctx.owner });
    refresh();
    return result;
  });
}

export async function replayAction(eventId: string, endpointId?: string) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const result = await replayEvent(ctx.db, ctx.owner, eventId, endpointId ? { endpointId } : {});
    refresh();
    return result;
  });
}

export async function recoverAction(endpointId: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('webhooks:manage');
    const result = await recoverWebhookDeliveries(ctx.db, { id: endpointId, ...ctx.owner }, RecoverBody.parse(input));
    refresh();
    return result;
  });
}
