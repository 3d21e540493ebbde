// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title StakeVault: USDC stakes of OpenJury agents.
/// @notice Anyone deposits for themselves or for another agent; an agent withdraws its own stake;
/// an account with SLASHER_ROLE slashes part of a stake to a recipient. The service follows the
/// events (docs/onchain.md#the-stake-vault-sync) and reads stakeOf at the event's block.
contract StakeVault is AccessControl, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The role allowed to slash.
    bytes32 public constant SLASHER_ROLE = keccak256("SLASHER_ROLE");

    /// @notice The staked token (6-decimals USDC).
    IERC20 public immutable token;

    mapping(address => uint256) private _stakes;

    event Deposited(address indexed payer, address indexed agent, uint256 amount);
    event Withdrawn(address indexed agent, uint256 amount);
    event Slashed(address indexed agent, address indexed recipient, uint256 requestedAmount, uint256 actualAmount);

    error ZeroAmount();
    error ZeroAddress();
    error InsufficientStake(uint256 stake, uint256 amount);

    constructor(IERC20 token_, address admin) {
        if (address(token_) == address(0) || admin == address(0)) revert ZeroAddress();
        token = token_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @notice The stake of agent, in token base units.
    function stakeOf(address agent) external view returns (uint256) {
        return _stakes[agent];
    }

    /// @notice Stakes amount of the caller's tokens for the caller.
    function deposit(uint256 amount) external nonReentrant {
        _deposit(msg.sender, amount);
    }

    /// @notice Stakes amount of the caller's tokens for agent.
    function depositFor(address agent, uint256 amount) external nonReentrant {
        _deposit(agent, amount);
    }

    /// @notice Returns amount of the caller's stake to the caller.
    function withdraw(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        uint256 s = _stakes[msg.sender];
        if (amount > s) revert InsufficientStake(s, amount);
        _stakes[msg.sender] = s - amount;
        token.safeTransfer(msg.sender, amount);
        emit Withdrawn(msg.sender, amount);
    }

    /// @notice Moves up to requestedAmount of agent's stake to recipient (all of it when the stake is smaller).
    function slash(address agent, uint256 requestedAmount, address recipient) external onlyRole(SLASHER_ROLE) nonReentrant {
        if (agent == address(0) || recipient == address(0)) revert ZeroAddress();
        uint256 s = _stakes[agent];
        uint256 actual = requestedAmount < s ? requestedAmount : s;
        _stakes[agent] = s - actual;
        if (actual > 0) token.safeTransfer(recipient, actual);
        emit Slashed(agent, recipient, requestedAmount, actual);
    }

    function _deposit(address agent, uint256 amount) private {
        if (amount == 0) revert ZeroAmount();
        if (agent == address(0)) revert ZeroAddress();
        _stakes[agent] += amount;
        token.safeTransferFrom(msg.sender, address(this), amount);
        emit Deposited(msg.sender, agent, amount);
    }
}
