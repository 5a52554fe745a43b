import { createServer, type IncomingMessage, type Server } from 'node:http';
import { TronWeb } from 'tronweb';
import { toBase58, toEvm, toHex41 } from './address';
import { BroadcastError } from './bandwidth';
import type { DeployedContract, StandInChain, TronBlock } from './chain';
import { handleJsonRpc } from './json-rpc';
import { factorOf } from './contract-tx';
import { constantCall } from './trigger';
import { accountView, blockView, resourceView, txInfoView, txView } from './views';

type Body = Record<string, unknown>;
type Handler = (body: Body, solid: boolean) => unknown | Promise<unknown>;

/**
 * The stand-in's TRON HTTP API: `/wallet/*` (head), `/walletsolidity/*` (solidified view, the same
 * handlers cut at the solidified block), `/jsonrpc`. With `autoMine`, each accepted broadcast is mined at once. Unknown paths answer 404 so a client relying on
 * an endpoint the stand-in lacks fails loudly.
 */
export function tronHttpApi(chain: StandInChain, opts: { autoMine: boolean }): Server {
  // Node-side builders use TronWeb itself with the head as reference block, so no request leaves here.
  const builder = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
  const header = () => {
    const h = chain.head;
    return {
      ref_block_bytes: h.number.toString(16).padStart(4, '0').slice(-4),
      ref_block_hash: h.id.slice(16, 32),
      expiration: h.timestamp + 60_000,
      timestamp: h.timestamp,
    };
  };
  const b58 = (v: unknown) => toBase58(toHex41(String(v)));
  const top = (solid: boolean) => (solid ? chain.solid : chain.head);
  const blockAt = (n: number, solid: boolean): TronBlock | undefined => (n <= top(solid).number ? chain.blocks[n] : undefined);
  const record = (id: unknown, solid: boolean) => {
    const r = chain.txs.get(String(id ?? '').toLowerCase());
    return r && r.blockNumber <= top(solid).number ? r : undefined;
  };

  const routes: Record<string, Handler> = {
    getnowblock: (_b, solid) => blockView(chain, top(solid), true),
    getblockbynum: (b, solid) => {
      const blk = blockAt(Number(b.num), solid);
      return blk ? blockView(chain, blk, true) : {};
    },
    getblockbyid: (b, solid) => {
      const id = String(b.value ?? '').toLowerCase();
      const blk = blockAt(parseInt(id.slice(0, 16), 16), solid);
      return blk && blk.id === id ? blockView(chain, blk, true) : {};
    },
    getblock: (b, solid) => {
      const key = String(b.id_or_num ?? '');
      const detail = b.detail === true || b.detail === 'true';
      if (!key) return blockView(chain, top(solid), detail);
      const n = /^\d+$/.test(key) ? Number(key) : parseInt(key.slice(0, 16), 16);
      const blk = blockAt(n, solid);
      if (key.length === 64 && blk?.id !== key.toLowerCase()) return {};
      return blk ? blockView(chain, blk, detail) : {};
    },
    getblockbylimitnext: (b, solid) => {
      const start = Number(b.startNum);
      const end = Math.min(Number(b.endNum), start + 100, top(solid).number + 1);
      const block = [];
      for (let n = start; n < end; n++) block.push(blockView(chain, chain.blocks[n]!, true));
      return block.length ? { block } : {};
    },
    gettransactionbyid: (b, solid) => {
      const r = record(b.value, solid);
      return r ? txView(r) : {};
    },
    gettransactioninfobyid: (b, solid) => {
      const r = record(b.value, solid);
      return r ? txInfoView(chain, r) : {};
    },
    gettransactioninfobyblocknum: (b, solid) => {
      const blk = blockAt(Number(b.num), solid);
      return blk ? blk.txIds.map((id) => txInfoView(chain, chain.txs.get(id)!)) : [];
    },
    getaccount: (b) => accountView(chain.ledger, toHex41(String(b.address))),
    getaccountresource: (b) => resourceView(chain.ledger, toHex41(String(b.address)), chain.head.timestamp),
    getcontract: (b) => {
      const c = chain.contracts.get(toHex41(String(b.value)));
      return c ? contractView(c, true) : {};
    },
    getcontractinfo: (b) => {
      const c = chain.contracts.get(toHex41(String(b.value)));
      if (!c) return {};
      return { smart_contract: contractView(c, false), contract_state: { energy_factor: Math.round(c.energyFactor * 10_000) } };
    },
    getchainparameters: () => {
      const p = chain.ledger.params;
      const keys: [string, number][] = [
        ['getTransactionFee', p.transactionFee],
        ['getCreateAccountFee', p.createAccountFee],
        ['getCreateNewAccountFeeInSystemContract', p.createNewAccountFeeInSystemContract],
        ['getEnergyFee', p.energyFee],
        ['getFreeNetLimit', p.freeNetLimit],
        ['getTotalEnergyLimit', p.totalEnergyLimit],
        ['getMaxFeeLimit', p.maxFeeLimit],
      ];
      return { chainParameter: keys.map(([key, value]) => ({ key, value })) };
    },
    triggerconstantcontract: async (b) => {
      const contract = chain.contracts.get(toHex41(String(b.contract_address)));
      if (!contract) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: Buffer.from('Smart contract is not exist.').toString('hex') } };
      const data = b.data ? String(b.data) : selector(builder, String(b.function_selector)) + String(b.parameter ?? '');
      const out = await constantCall(
        chain.rpc,
        { from: toEvm(String(b.owner_address ?? contract.address)), to: toEvm(contract.address), data: `0x${data}` },
        factorOf(chain.contracts),
      );
      const result = out.failed ? { result: true, message: Buffer.from('REVERT opcode executed').toString('hex') } : { result: true };
      return {
        result,
        energy_used: out.energy,
        ...(out.penalty ? { energy_penalty: out.penalty } : {}),
        constant_result: [out.result],
        transaction: { ret: [out.failed ? { ret: 'FAILED' } : {}] },
      };
    },
    triggersmartcontract: async (b) => {
      const contract = chain.contracts.get(toHex41(String(b.contract_address)));
      if (!contract) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: Buffer.from('Smart contract is not exist.').toString('hex') } };
      const options = {
        feeLimit: Number(b.fee_limit ?? 0) || 1,
        callValue: Number(b.call_value ?? 0),
        txLocal: true,
        blockHeader: header(),
        rawParameter: String(b.parameter ?? ''),
      };
      const { transaction } = await builder.transactionBuilder.triggerSmartContract(
        b58(contract.address),
        String(b.function_selector),
        options,
        [],
        b58(b.owner_address),
      );
      return { result: { result: true }, txid: transaction.txID, transaction };
    },
    deploycontract: (b) => {
      // java-tron appends `parameter` to `bytecode` unchecked; TronWeb checks a constructor's arguments unless given a
      // non-empty rawParameter, so the code's last byte is handed over as that (the concatenation is the same).
      const code = String(b.bytecode ?? '').replace(/^0x/, '') + String(b.parameter ?? '');
      return builder.transactionBuilder.createSmartContract(
        {
          abi: typeof b.abi === 'string' ? b.abi : JSON.stringify(b.abi ?? []),
          bytecode: code.slice(0, -2),
          rawParameter: code.slice(-2),
          feeLimit: Number(b.fee_limit ?? 0),
          userFeePercentage: Number(b.consume_user_resource_percent ?? 0),
          originEnergyLimit: Number(b.origin_energy_limit ?? 0),
          name: String(b.name ?? ''),
          blockHeader: header(),
        } as never,
        b58(b.owner_address),
      );
    },
    createtransaction: (b) =>
      builder.transactionBuilder.sendTrx(b58(b.to_address), Number(b.amount), b58(b.owner_address), { blockHeader: header() }),
    createaccount: (b) => builder.transactionBuilder.createAccount(b58(b.account_address), b58(b.owner_address), { blockHeader: header() }),
    freezebalancev2: (b) =>
      builder.transactionBuilder.freezeBalanceV2(Number(b.frozen_balance), resource(b.resource), b58(b.owner_address), { blockHeader: header() }),
    delegateresource: (b) =>
      builder.transactionBuilder.delegateResource(
        Number(b.balance),
        b58(b.receiver_address),
        resource(b.resource),
        b58(b.owner_address),
        false,
        undefined,
        { blockHeader: header() },
      ),
    undelegateresource: (b) =>
      builder.transactionBuilder.undelegateResource(Number(b.balance), b58(b.receiver_address), resource(b.resource), b58(b.owner_address), {
        blockHeader: header(),
      }),
    broadcasttransaction: async (b) => {
      try {
        const txid = await chain.accept(b as never);
        // Tests: the block comes with the broadcast (like anvil's automine); dev mines on a timer.
        if (opts.autoMine) await chain.mine();
        // SUCCESS is the proto default, which java-tron's JSON leaves out (TronWeb reads any `code` as a refusal).
        return { result: true, txid };
      } catch (e) {
        if (!(e instanceof BroadcastError)) throw e;
        return { code: e.code, message: Buffer.from(e.message).toString('hex'), txid: String(b.txID ?? '') };
      }
    },
  };
  const solidityRoutes = new Set([
    'getnowblock',
    'getblockbynum',
    'getblockbyid',
    'getblock',
    'getblockbylimitnext',
    'gettransactionbyid',
    'gettransactioninfobyid',
    'gettransactioninfobyblocknum',
    'getaccount',
    'triggerconstantcontract',
  ]);

  return createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        const body = await readBody(req, url);
        if (url.pathname === '/jsonrpc') return send(200, await handleJsonRpc(chain, body));
        const m = /^\/(wallet|walletsolidity)\/([a-z0-9]+)$/.exec(url.pathname);
        const handler = m && routes[m[2]!];
        if (!m || !handler || (m[1] === 'walletsolidity' && !solidityRoutes.has(m[2]!)))
          return send(404, { Error: `no such endpoint on the stand-in: ${url.pathname}` });
        send(200, await handler(body as Body, m[1] === 'walletsolidity'));
      } catch (e) {
        send(200, { Error: `class java.lang.Exception : ${e instanceof Error ? e.message : String(e)}` });
      }
    })();
  });
}

/** SmartContract as getcontract answers it (visible=false): hex addresses, creation bytecode, the energy split. */
function contractView(c: DeployedContract, withCode: boolean) {
  return {
    origin_address: c.origin,
    contract_address: c.address,
    abi: { entrys: c.abi },
    ...(withCode ? { bytecode: c.bytecode.replace(/^0x/, '') } : {}),
    ...(c.userPercent ? { consume_user_resource_percent: c.userPercent } : {}),
    origin_energy_limit: c.originEnergyLimit,
    name: c.name,
  };
}

function resource(v: unknown): 'ENERGY' | 'BANDWIDTH' {
  return v === 'ENERGY' ? 'ENERGY' : 'BANDWIDTH';
}

function selector(tw: TronWeb, sig: string): string {
  return tw.sha3(sig).slice(2, 10);
}

async function readBody(req: IncomingMessage, url: URL): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text) return JSON.parse(text);
  return Object.fromEntries(url.searchParams);
}
