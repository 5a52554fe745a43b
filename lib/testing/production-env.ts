import { randomBytes } from 'node:crypto';
import { english, generateMnemonic, generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

/** A complete, valid production configuration (fresh keys, never the dev mnemonic) for tests of production behaviour. */
export function productionEnv(): Record<string, string> {
  return {
    APP_ENV: 'production',
    LIVE_RPC_URL: 'http://127.0.0.1:1',
    LIVE_CHAIN_ID: '56',
    LIVE_TOKEN_ADDRESS: '0x55d398326f99059fF775485246999027B3197955',
    LIVE_DEPOSIT_MNEMONIC: generateMnemonic(english),
    LIVE_GAS_WALLET_PRIVATE_KEY: generatePrivateKey(),
    LIVE_FEE_WALLET_ADDRESS: privateKeyToAddress(generatePrivateKey()),
    LIVE_HOT_WALLET_PRIVATE_KEY: generatePrivateKey(),
    AUTH_SECRET: randomBytes(32).toString('base64'),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
}
