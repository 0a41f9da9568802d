// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title Call batch types shared by ProxyWallet and ProxyWalletFactory (Polymarket proxy-factories ABI).
library ProxyCalls {
    enum CallType {
        INVALID,
        CALL,
        DELEGATECALL
    }

    struct ProxyCall {
        CallType typeCode;
        address payable to;
        uint256 value;
        bytes data;
    }
}

/// @title ProxyWallet: the implementation behind every user's proxy-wallet clone.
/// @notice Owned by the factory that deployed the clone; the factory forwards a user's batch after it has
///         authenticated the user (directly, or through the GSN RelayHub). Holds ERC-20, ERC-1155 (Conditional
///         Tokens positions) and ERC-721 tokens.
contract ProxyWallet {
    address public owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice Binds the clone to its deployer (the factory). Runs once, right after the clone is created.
    function initialize() external {
        require(owner == address(0), "ProxyWallet: already initialized");
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    /// @notice Runs the calls in order; the first failing call reverts the whole batch with its revert data.
    function proxy(ProxyCalls.ProxyCall[] memory calls) public payable returns (bytes[] memory returnValues) {
        require(msg.sender == owner, "ProxyWallet: caller is not the owner");
        returnValues = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            ProxyCalls.ProxyCall memory c = calls[i];
            bool ok;
            bytes memory ret;
            if (c.typeCode == ProxyCalls.CallType.CALL) {
                (ok, ret) = c.to.call{value: c.value}(c.data);
            } else if (c.typeCode == ProxyCalls.CallType.DELEGATECALL) {
                (ok, ret) = c.to.delegatecall(c.data);
            } else {
                revert("ProxyWallet: invalid call type");
            }
            if (!ok) {
                if (ret.length == 0) revert("ProxyWallet: call failed");
                // Bubble the callee's revert data unchanged so the caller sees the real reason.
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
            returnValues[i] = ret;
        }
    }

    receive() external payable {}

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x4e2312e0 // ERC-1155 receiver
            || interfaceId == 0x150b7a02; // ERC-721 receiver
    }
}
