import QRCode from 'qrcode';
import { Decimal } from '@/lib/money';
import type { Network } from '@/lib/chain/network';
import { familyOf } from '@/lib/config/rails';

/**
 * The deposit QR code as inline SVG (rendered on the server: no QR library in
 * the browser). EIP-681 token transfer when the token is known, so wallets
 * prefill the amount; otherwise the bare address. TRON has no payment URI its
 * wallets share: the bare `T…` address (docs/tron.md, "Checkout").
 */
export async function paymentQrSvg(
  address: string,
  amount: string,
  network: Pick<Network, 'chain' | 'chainId' | 'tokenAddress' | 'decimals'>,
): Promise<string> {
  const units = new Decimal(amount).times(new Decimal(10).pow(network.decimals)).toFixed(0);
  const eip681 = network.tokenAddress && familyOf(network.chain) === 'evm';
  const uri = eip681 ? `ethereum:${network.tokenAddress}@${network.chainId}/transfer?address=${address}&uint256=${units}` : address;
  return QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } });
}
