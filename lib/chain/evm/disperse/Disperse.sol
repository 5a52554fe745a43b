// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/**
 * Pays many recipients of one ERC-20 in one transaction, from the caller's own balance (issue 47, batch payouts).
 *
 * The caller (the gateway's hot wallet) approves this contract once; each payment is `transferFrom(caller,
 * recipient, value)`, so tokens never rest here and nobody but the caller can move the caller's tokens through
 * it (the `from` is always msg.sender). Any failed transfer reverts the whole call: a batch is paid whole or not
 * at all. Tokens that return nothing (USDT on Ethereum) and tokens that return a bool are both accepted.
 */
contract Disperse {
    error LengthMismatch();
    error TransferFailed(uint256 index);

    function disperseToken(address token, address[] calldata recipients, uint256[] calldata values) external {
        uint256 n = recipients.length;
        if (n != values.length) revert LengthMismatch();
        for (uint256 i = 0; i < n; ) {
            (bool ok, bytes memory ret) = token.call(
                abi.encodeWithSelector(0x23b872dd, msg.sender, recipients[i], values[i])
            );
            if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(i);
            unchecked {
                ++i;
            }
        }
    }
}
