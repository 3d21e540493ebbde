// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestUSDC: a 6-decimals stand-in for USDC on dev and test chains.
/// @notice Anyone may mint: never deploy it where the tokens must be worth anything.
contract TestUSDC is ERC20 {
    constructor() ERC20("Test USD Coin", "USDC") {}

    /// @notice USDC has 6 decimals.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints amount base units to `to`.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
