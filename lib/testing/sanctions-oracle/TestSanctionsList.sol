// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * A local stand-in for Chainalysis's sanctions oracle (the SanctionsList contract deployed at one address on
 * Ethereum, BSC, Polygon, Arbitrum, Optimism, Avalanche and Base): the same owner-only list updates and the same
 * `isSanctioned(address) returns (bool)` the gateway reads (lib/screening/adapters/sanctions-oracle.ts).
 */
contract TestSanctionsList {
    address public owner;
    mapping(address => bool) private sanctioned;

    event SanctionedAddressesAdded(address[] addrs);
    event SanctionedAddressesRemoved(address[] addrs);

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, 'not owner');
        _;
    }

    function addToSanctionsList(address[] calldata newSanctions) external onlyOwner {
        for (uint256 i = 0; i < newSanctions.length; i++) sanctioned[newSanctions[i]] = true;
        emit SanctionedAddressesAdded(newSanctions);
    }

    function removeFromSanctionsList(address[] calldata removeSanctions) external onlyOwner {
        for (uint256 i = 0; i < removeSanctions.length; i++) sanctioned[removeSanctions[i]] = false;
        emit SanctionedAddressesRemoved(removeSanctions);
    }

    function isSanctioned(address addr) external view returns (bool) {
        return sanctioned[addr];
    }
}
