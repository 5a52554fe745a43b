/** LiteSVM's error as the RPC's JSON shape: "BlockhashNotFound" or {"InstructionError":[0,{"Custom":1}]}. */
export function errJson(err: unknown): unknown {
  if (typeof err === 'number') return TX_ERRORS[err] ?? `TransactionError${err}`;
  if (err && typeof err === 'object') {
    const e = err as Record<string, unknown> & { index?: number; err?: () => unknown };
    if (typeof e.index === 'number' && typeof e.err === 'function') {
      const inner = e.err();
      if (typeof inner === 'number') return { InstructionError: [e.index, IX_ERRORS[inner] ?? `InstructionError${inner}`] };
      if (inner && typeof inner === 'object' && 'code' in inner) return { InstructionError: [e.index, { Custom: (inner as { code: number }).code }] };
      return { InstructionError: [e.index, String(inner)] };
    }
  }
  return String(err);
}

/** The preflight error message: "Transaction simulation failed: Error processing Instruction 1: custom program error: 0x1". */
export const errText = (err: unknown) => {
  const j = errJson(err);
  if (j && typeof j === 'object' && 'InstructionError' in j) {
    const [i, inner] = (j as { InstructionError: [number, unknown] }).InstructionError;
    return `Error processing Instruction ${i}: ${typeof inner === 'string' ? inner : `custom program error: 0x${(inner as { Custom: number }).Custom.toString(16)}`}`;
  }
  return String(j);
};

// The leading members of TransactionError and InstructionError (solana-sdk), in LiteSVM's enum order.
const TX_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
];
const IX_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
];
